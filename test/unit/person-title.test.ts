import { describe, expect, it } from 'vitest';
import { emailOfPersonTitle, personTitle } from '../../src/shared/person-title';

describe('a person named by their title', () => {
  it('names them by name and email, or by the one they have', () => {
    expect(personTitle('Ada Allen', 'ada.allen@example.com')).toBe('Ada Allen <ada.allen@example.com>');
    expect(personTitle('Ada Allen', '')).toBe('Ada Allen');
    expect(personTitle('', 'ada.allen@example.com')).toBe('ada.allen@example.com');
  });

  it('reads the email back from any title it made, and none from a title without one', () => {
    for (const [name, email] of [
      ['Tim Ritchie', 'tim.ritchie2@example.com'],
      ['Ritchie, Tim <ops>', 'tim@example.com'],
      ['', 'ops+alerts@example.co.uk'],
    ] as const)
      expect(emailOfPersonTitle(personTitle(name, email))).toBe(email);
    expect(emailOfPersonTitle(personTitle('Tim Ritchie', ''))).toBeNull();
    expect(emailOfPersonTitle('Build <robot>')).toBeNull();
    expect(emailOfPersonTitle('')).toBeNull();
    expect(emailOfPersonTitle(undefined)).toBeNull();
  });
});
