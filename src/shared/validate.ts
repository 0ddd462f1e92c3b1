/**
 * Local validation by the spec's rules, shared by the outbox, the forms and the reference tenant.
 * Each failure names the problem precisely, so a user can fix it without guessing.
 */

export const SCOPE_VALUE_MAX_BYTES = 256;

export interface ValidationProblem {
  /** A stable code for programs. */
  code: string;
  /** A sentence for people, naming the field and the offending part. */
  message: string;
  /** 1-based character position of the offending character, when there is one. */
  position?: number;
}

/** RFC 6749 scope-token: NQCHAR = %x21 / %x23-5B / %x5D-7E (printable ASCII except space, `"` and `\`). */
export function isScopeTokenChar(codePoint: number): boolean {
  return codePoint === 0x21 || (codePoint >= 0x23 && codePoint <= 0x5b) || (codePoint >= 0x5d && codePoint <= 0x7e);
}

function describeChar(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  if (codePoint === 0x20) return `a space (${hex})`;
  if (codePoint < 0x20 || codePoint === 0x7f) return `a control character (${hex})`;
  return `'${char}' (${hex})`;
}

function utf8Length(value: string): number {
  let bytes = 0;
  for (const char of value) {
    const cp = char.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Checks a scopeValue: 1 to 256 bytes of UTF-8, every character an RFC 6749 scope-token character. */
export function validateScopeValue(value: unknown, field = 'scopeValue'): ValidationProblem | null {
  if (typeof value !== 'string') return { code: 'scope_value_type', message: `${field} must be a string` };
  if (value.length === 0) return { code: 'scope_value_empty', message: `${field} is empty: it needs 1 to 256 bytes` };
  const bytes = utf8Length(value);
  let position = 0;
  for (const char of value) {
    position += 1;
    if (!isScopeTokenChar(char.codePointAt(0) ?? 0)) {
      return {
        code: 'scope_value_charset',
        message:
          `${field} has ${describeChar(char)} at position ${position}; ` +
          `only printable ASCII except space, '"' and '\\' is allowed (RFC 6749 scope-token)`,
        position,
      };
    }
  }
  if (bytes > SCOPE_VALUE_MAX_BYTES) {
    return {
      code: 'scope_value_too_long',
      message: `${field} is ${bytes} bytes long; at most ${SCOPE_VALUE_MAX_BYTES} are allowed`,
      position: SCOPE_VALUE_MAX_BYTES + 1,
    };
  }
  return null;
}
