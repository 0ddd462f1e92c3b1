import { describe, expect, it } from 'vitest';
import { fullNameOf } from '../../src/main/os-user';

describe('the full name of an OS account', () => {
  it('is the first GECOS field of its passwd line', () => {
    expect(fullNameOf('jdoe:x:1000:1000:Jane Doe,Room 4,555-1234,,:/home/jdoe:/bin/bash', 'jdoe')).toBe('Jane Doe');
    expect(fullNameOf('jdoe:x:1000:1000:Jane Doe:/home/jdoe:/bin/zsh', 'jdoe')).toBe('Jane Doe');
  });

  it('expands & to the login name, capitalised (the BSD convention)', () => {
    expect(fullNameOf('ann:x:1001:1001:& Smith:/home/ann:/bin/sh', 'ann')).toBe('Ann Smith');
  });

  it('is null for an empty GECOS, one equal to the login, another account, or a malformed line', () => {
    expect(fullNameOf('root:x:0:0:root:/root:/bin/bash', 'root')).toBeNull();
    expect(fullNameOf('svc:x:999:999::/var/svc:/usr/sbin/nologin', 'svc')).toBeNull();
    expect(fullNameOf('jdoe:x:1000:1000:Jane Doe:/home/jdoe:/bin/bash', 'jdo')).toBeNull();
    expect(fullNameOf('garbage', 'garbage')).toBeNull();
  });
});
