/**
 * How a person is named wherever an object names them by id (an identity user's title): their name
 * and email, "Ada Allen <ada.allen@example.com>"; the one of the two they have otherwise. And the
 * email read back from such a title, for a view that shows the email beside another name (a
 * member's account name).
 */
export function personTitle(name: string, email: string): string {
  if (name && email) return `${name} <${email}>`;
  return name || email;
}

const EMAIL = /^[^<>\s@]+@[^<>\s@]+$/;

/** The email in a person's title (see personTitle); null where it holds none. */
export function emailOfPersonTitle(title: string | null | undefined): string | null {
  if (!title) return null;
  const bracketed = /<([^<>]+)>$/.exec(title)?.[1];
  if (bracketed !== undefined) return EMAIL.test(bracketed) ? bracketed : null;
  return EMAIL.test(title) ? title : null;
}
