import { describe, expect, it } from 'vitest';
import { CellTypeError, readCell } from '../../src/main/outbox/csv-cells';
import { descriptorOf } from '../../src/main/outbox/kinds';
import { ENUMS } from '../../src/shared/enums';

describe('CSV cells read as their column type', () => {
  it('yes/no words, whole numbers, dates, durations', () => {
    expect(['true', 'Yes', ' y ', '1'].map((v) => readCell(v, 'boolean'))).toEqual([true, true, true, true]);
    expect(['FALSE', 'no', 'N', '0'].map((v) => readCell(v, 'boolean'))).toEqual([false, false, false, false]);
    expect(readCell(' 12 ', 'integer')).toBe(12);
    expect(readCell('2027-06-30', 'date-time')).toBe('2027-06-30T00:00:00Z');
    expect(readCell('2027-06-30T17:00:00+02:00', 'date-time')).toBe('2027-06-30T17:00:00+02:00');
    expect(readCell('1209600s', 'duration')).toBe('1209600s');
    expect(readCell('14d', 'duration')).toBe('1209600s');
    expect(readCell('1 day', 'duration')).toBe('86400s');
    expect(readCell('36h', 'duration')).toBe('129600s');
    expect(readCell('2 weeks', 'duration')).toBe('1209600s');
    expect(readCell('90m', 'duration')).toBe('5400s');
    expect(readCell('1.5s', 'duration')).toBe('1.5s');
    expect(readCell('  keep spaces ', 'text')).toBe('  keep spaces ');
  });

  it('lists split on ; or |, enum values in short form expanded', () => {
    expect(readCell('a; b|c ;', 'text-list')).toEqual(['a', 'b', 'c']);
    expect(readCell('user; system account', 'enum-list', ENUMS.AppUserType)).toEqual([
      'APP_USER_TYPE_USER',
      'APP_USER_TYPE_SYSTEM_ACCOUNT',
    ]);
    expect(readCell('write', 'enum', ENUMS.XaaScopeClassification)).toBe('XAA_SCOPE_CLASSIFICATION_WRITE');
  });

  it('refuses a cell that is not of its type, saying what was expected', () => {
    const refusal = (raw: string, type: Parameters<typeof readCell>[1], values?: readonly string[]) => {
      try {
        readCell(raw, type, values);
      } catch (error) {
        expect(error).toBeInstanceOf(CellTypeError);
        return (error as Error).message;
      }
      throw new Error(`'${raw}' was read as ${type}`);
    };
    expect(refusal('perhaps', 'boolean')).toBe("'perhaps' is not true or false (write true/false, yes/no or 1/0)");
    expect(refusal('-3', 'integer')).toBe("'-3' is not a whole number of 0 or more");
    expect(refusal('2.5', 'integer')).toBe("'2.5' is not a whole number of 0 or more");
    expect(refusal('30/06/2027', 'date-time')).toMatch(/^'30\/06\/2027' is not a date: write 2025-06-30/);
    expect(refusal('2 fortnights', 'duration')).toMatch(/is not a duration: write '21d', '36h', '90m', '2w' or seconds such as '1209600s'/);
    expect(refusal('-3d', 'duration')).toMatch(/is not a duration/);
    expect(refusal('user;robot', 'enum-list', ENUMS.AppUserType)).toBe(
      "'robot' is not one of APP_USER_TYPE_USER, APP_USER_TYPE_SERVICE_ACCOUNT, APP_USER_TYPE_SYSTEM_ACCOUNT",
    );
    expect(refusal('x'.repeat(100), 'boolean')).toBe(`'${'x'.repeat(40)}…' is not true or false (write true/false, yes/no or 1/0)`);
  });
});

describe('update-template items of version 1', () => {
  const upgrade = (input: Record<string, unknown>) => descriptorOf('update-template').upgrade!(input, 1);

  it('name message fields down to the members that changed, without the members the server sets', () => {
    const rule = { startDate: '2025-01-01T00:00:00Z', endDate: null, interval: 3, occurrences: null, frequency: 'FREQUENCY_NONE' };
    const scope = { allUsers: {}, principalTypeFilter: 'PRINCIPAL_TYPE_FILTER_RESOURCES' };
    const upgraded = upgrade({
      templateId: 't-1',
      changes: {
        recurrenceRule: { ...rule, interval: 6 },
        displayName: 'New name',
        scope: { ...scope, allGrants: {} },
        notificationConfig: { sendClose: true, sendKickoff: false },
      },
      updateMask: 'recurrenceRule,displayName,scope,notificationConfig',
      before: {
        recurrenceRule: rule,
        displayName: 'Old name',
        scope,
        notificationConfig: { sendClose: false, sendKickoff: false },
      },
    });
    expect(upgraded).toEqual({
      templateId: 't-1',
      changes: {
        recurrenceRule: { interval: 6 },
        displayName: 'New name',
        scope: { allUsers: {}, allGrants: {} },
        notificationConfig: { sendClose: true },
      },
      updateMask: 'recurrenceRule.interval,displayName,scope,notificationConfig.sendClose',
      before: {
        'recurrenceRule.interval': 3,
        displayName: 'Old name',
        scope: { allUsers: {} },
        'notificationConfig.sendClose': false,
      },
    });
  });

  it('set a message field whole when no member of it differs from what it was compared with (as it was sent)', () => {
    const upgraded = upgrade({
      templateId: 't-1',
      changes: { signatureConfig: { requireSignature: true, meaningOfSignature: 'ok' } },
      updateMask: 'signatureConfig',
      before: {},
    });
    expect(upgraded).toMatchObject({
      changes: { signatureConfig: { requireSignature: true, meaningOfSignature: 'ok' } },
      updateMask: 'signatureConfig.requireSignature,signatureConfig.meaningOfSignature',
    });
  });
});
