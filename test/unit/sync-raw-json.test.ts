import { describe, expect, it } from 'vitest';
import { arrayElementMemberSlices, arrayMemberSlices, checkObject, memberSlice, RawJsonError } from '../../src/main/collections/raw-json';

describe('raw JSON slices', () => {
  it('returns each element of the list byte-exact, whatever its spacing', () => {
    const a = '{ "id" : "a",\n  "n": 1 }';
    const b = '{"id":"b","nested":{"list":[1,2,[3,{"x":[]}]]}}';
    const text = `{\n  "list" : [ ${a} ,\n\t${b}\n ],\r\n "nextPageToken": "t1"\n}\n`;
    expect(arrayMemberSlices(text, 'list')).toEqual([a, b]);
    expect(memberSlice(text, 'nextPageToken')).toBe('"t1"');
    for (const [i, slice] of arrayMemberSlices(text, 'list').entries()) {
      expect(JSON.parse(slice)).toEqual((JSON.parse(text) as { list: unknown[] }).list[i]);
    }
  });

  it('skips strings holding quotes, backslashes, brackets and escapes', () => {
    const tricky = [
      '{"s":"a \\" quote"}',
      '{"s":"ends with a backslash \\\\"}',
      '{"s":"three \\\\\\" then quote"}',
      '{"s":"brackets ] } [ { inside"}',
      '{"s":"\\u005b\\u007d\\n\\t\\/"}',
      '{"cel":"subject.department == \\"Eng\\" && [1,2].exists(x, x > 1)"}',
    ];
    const text = `{"list":[${tricky.join(',')}]}`;
    expect(arrayMemberSlices(text, 'list')).toEqual(tricky);
    expect(arrayMemberSlices(text, 'list').map((s) => JSON.parse(s) as unknown)).toEqual((JSON.parse(text) as { list: unknown[] }).list);
  });

  it('keeps unicode exactly: accents, CJK, emoji (surrogate pairs) and escaped forms', () => {
    const items = [
      '{"n":"Zoë Ångström"}',
      '{"n":"数据访问"}',
      '{"n":"🔐 keys 🗝️"}',
      '{"n":"\\ud83d\\udd10 escaped"}',
      '{"n":"\u2028 line sep"}',
    ];
    const text = `{"list":[${items.join(',')}],"nextPageToken":""}`;
    const slices = arrayMemberSlices(text, 'list');
    expect(slices).toEqual(items);
    expect(Buffer.from(slices.join(''), 'utf8').equals(Buffer.from(items.join(''), 'utf8'))).toBe(true);
  });

  it('handles scalars, empty arrays, nested arrays, and a missing or null member', () => {
    expect(arrayMemberSlices('{"list":[]}', 'list')).toEqual([]);
    expect(arrayMemberSlices('{"list":[ ]}', 'list')).toEqual([]);
    expect(arrayMemberSlices('{"list":null}', 'list')).toEqual([]);
    expect(arrayMemberSlices('{"nextPageToken":"x"}', 'list')).toEqual([]);
    expect(arrayMemberSlices('{}', 'list')).toEqual([]);
    expect(arrayMemberSlices('{"list":[1,-2.5e3,true,false,null,"s",[],[[1],[2]],{}]}', 'list')).toEqual([
      '1',
      '-2.5e3',
      'true',
      'false',
      'null',
      '"s"',
      '[]',
      '[[1],[2]]',
      '{}',
    ]);
  });

  it('looks only at the top level, matches escaped member names, and takes the last duplicate like JSON.parse', () => {
    const text = '{"other":{"list":["nested"]},"li\\u0073t":["escaped key"]}';
    expect(arrayMemberSlices(text, 'list')).toEqual(['"escaped key"']);
    expect(arrayMemberSlices('{"list":[1],"list":[2]}', 'list')).toEqual(['2']);
    expect(memberSlice('{"a":{"b":1}}', 'b')).toBeNull();
    expect(memberSlice('{"accessReviewTemplate": {"id":"t1","x":[1]} }', 'accessReviewTemplate')).toBe('{"id":"t1","x":[1]}');
  });

  it('refuses truncated text, HTML and trailing garbage', () => {
    const full = '{"list":[{"id":"a","s":"x\\"y"},{"id":"b"}],"nextPageToken":"n"}';
    for (let cut = 1; cut < full.length; cut += 1) {
      expect(() => arrayMemberSlices(full.slice(0, cut), 'list'), `cut at ${cut}`).toThrow(RawJsonError);
    }
    expect(() => checkObject('<!doctype html><html><body>Bad gateway</body></html>')).toThrow(RawJsonError);
    expect(() => checkObject('{"a":1} x')).toThrow(/after the JSON object/);
    expect(() => checkObject('{"a":1,}')).toThrow(RawJsonError);
    expect(() => checkObject('{"a" 1}')).toThrow(/colon/);
    expect(() => arrayMemberSlices('{"list":[1 2]}', 'list')).toThrow(/comma/);
    expect(() => arrayMemberSlices('{"list":[{"a":[1}]}', 'list')).toThrow(/mismatched/);
    expect(() => arrayMemberSlices('{"list":[tru]}', 'list')).toThrow(/invalid literal/);
    expect(() => arrayMemberSlices('{"list":{"a":1}}', 'list')).toThrow(/expected an array/);
    expect(() => checkObject('\ufeff{"a":1}')).toThrow(RawJsonError);
  });

  it('cuts each element to one of its members in one pass, as cutting the element and then the member would', () => {
    const text =
      '{"list":[ {"entitlement":{"id":"e1","binding":"not this one"}, "binding" : {"appUserId":"u1"} },' +
      '{"binding":{"a":1},"binding":{"a":2}}, {"other":1}, "a string", null ], "nextPageToken":"n"}';
    expect(arrayElementMemberSlices(text, 'list', 'binding')).toEqual(['{"appUserId":"u1"}', '{"a":2}', null, null, null]);
    expect(arrayElementMemberSlices(text, 'list', 'binding')).toEqual(
      arrayMemberSlices(text, 'list').map((row) => (row.startsWith('{') ? memberSlice(row, 'binding') : null)),
    );
    expect(arrayElementMemberSlices('{"list":null}', 'list', 'binding')).toEqual([]);
    // An element's own members are read as strictly as a page's; what is inside them, as loosely.
    expect(() => arrayElementMemberSlices('{"list":[{"binding" {"a":1}}]}', 'list', 'binding')).toThrow(/colon/);
    expect(() => arrayElementMemberSlices('{"list":[{"binding":{"a":1},}]}', 'list', 'binding')).toThrow(RawJsonError);
    expect(() => arrayElementMemberSlices('{"list":[{"binding":{"a":[1}}]}', 'list', 'binding')).toThrow(/mismatched/);
    const full = '{"list":[{"x":1,"binding":{"id":"a"}},{"binding":{"id":"b"}}]}';
    for (let cut = 1; cut < full.length; cut += 1)
      expect(() => arrayElementMemberSlices(full.slice(0, cut), 'list', 'binding'), `cut at ${cut}`).toThrow(RawJsonError);
  });

  it('agrees with JSON.parse on generated pages', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'Z', ' ', '"', '\\', '/', '\n', 'é', '漢', '😀', '{', ']', '\u0000', '\u2029'];
    const word = () => Array.from({ length: Math.floor(rand() * 12) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.3) return word();
      if (r < 0.4) return Math.floor(rand() * 1e6) / 100;
      if (r < 0.45) return rand() < 0.5;
      if (r < 0.5) return null;
      if (r < 0.75) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [word(), value(depth + 1)]));
    };
    for (let n = 0; n < 200; n += 1) {
      const list = Array.from({ length: Math.floor(rand() * 6) }, () => value(0));
      const text = JSON.stringify({ before: value(1), list, nextPageToken: word() }, null, n % 3 === 0 ? 2 : undefined);
      const slices = arrayMemberSlices(text, 'list');
      expect(slices.map((s) => JSON.parse(s) as unknown)).toEqual(list);
      for (const s of slices) expect(text.includes(s)).toBe(true);
      // Each object element's first member, cut in the same pass, is what JSON.parse makes of it.
      const key = (row: unknown) => (row !== null && typeof row === 'object' && !Array.isArray(row) ? Object.keys(row)[0] : undefined);
      const first = list.map(key).find((k) => k !== undefined);
      if (first === undefined) continue;
      const members = arrayElementMemberSlices(text, 'list', first);
      expect(members.map((m) => (m === null ? undefined : (JSON.parse(m) as unknown)))).toEqual(
        list.map((row) => (key(row) === undefined ? undefined : (row as Record<string, unknown>)[first])),
      );
    }
  });
});
