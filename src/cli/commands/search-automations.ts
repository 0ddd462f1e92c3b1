import {
  AUTOMATION_SEARCH_PAGE_MAX,
  AUTOMATION_SEARCH_PAGES_DEFAULT,
  AUTOMATION_STATUSES,
  AUTOMATION_TRIGGER_TYPES,
  searchAutomationsInStore,
  searchAutomationsLive,
  type AutomationFilters,
} from '../../main/app/automations';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO } from '../io';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputFormat, print } from '../output';
import { openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const words = (values: readonly string[], prefix: string) => values.map((v) => v.slice(prefix.length).toLowerCase()).join(', ');

/** `text` in lines of at most `width` characters, each after `indent`. */
function wrapped(text: string, indent: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l) => `${indent}${l}`).join('\n');
}

export const searchAutomationsUsage = `Usage: attest search automations [--live] [--query Q] [--app-id ID] [--app-ids A,B…] [--draft|--published]
         [--status S,…] [--trigger-type T,…] [--any-trigger-type T,…] [--ref ID,…]
         [--page-size N] [--max-pages N] [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]

The spec's automation search (POST /search/automations) with each of its filters. With --live the
tenant answers, page by page; without it the synced automations answer, each filter meaning what it
means on the server. It says which answered, and as of when.
  --query Q             a part of the name or description (any case)
  --app-id ID           automations of that app (appId)
  --app-ids A,B…        automations of any of these apps (appIds; supersedes --app-id when given)
  --draft, --published  drafts only, or published only (isDraft; default: both)
  --status S,…          ${words(AUTOMATION_STATUSES, 'AUTOMATION_STATUS_FILTER_')} (statuses: enabled or not, drafts included; both is no filter)
  --trigger-type T,…    the primary trigger type is one of these (triggerTypes, as the server matches it):
${wrapped(words(AUTOMATION_TRIGGER_TYPES, 'TRIGGER_TYPE_'), ' '.repeat(24))}
                        (or the full names, TRIGGER_TYPE_SCHEDULE)
  --any-trigger-type T,… offline only: any trigger, live or draft, or the primary type, is one of these
  --ref ID,…            automations of these ids (refs: [{id}], repeatable)
  --live                ask the tenant (else: the store, offline)
  --page-size N         live: automations per page, 1 to ${AUTOMATION_SEARCH_PAGE_MAX} (the spec's limit for this search;
                        default ${AUTOMATION_SEARCH_PAGE_MAX}; the spec's pagination raises a size below 10 to 10)
  --max-pages N         live: stop after N pages and say more remain (default ${AUTOMATION_SEARCH_PAGES_DEFAULT})
${STORE_USAGE}
${OUTPUT_USAGE}
                        (json: {source, asOf, complete, pages, automations: [{id, name, appId, appName,
                        primaryTriggerType, enabled, isDraft, json}]})`;

const list = (values: string[] | undefined): string[] | undefined =>
  values === undefined
    ? undefined
    : values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');

/** `attest search automations …`: the store's or the tenant's answer to the spec's filters. */
export async function searchAutomationsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...STORE_OPTIONS,
      ...OUTPUT_OPTIONS,
      live: { type: 'boolean', default: false },
      query: { type: 'string' },
      'app-id': { type: 'string' },
      'app-ids': { type: 'string', multiple: true },
      draft: { type: 'boolean' },
      published: { type: 'boolean' },
      status: { type: 'string', multiple: true },
      'trigger-type': { type: 'string', multiple: true },
      'any-trigger-type': { type: 'string', multiple: true },
      ref: { type: 'string', multiple: true },
      'page-size': { type: 'string' },
      'max-pages': { type: 'string' },
    },
    true,
  );
  if (positionals.length > 0)
    throw new UsageError(`unexpected '${positionals.join(' ')}': give the words to look for as --query "${positionals.join(' ')}"`);
  if (values.draft && values.published) throw new UsageError('give --draft or --published, not both');
  if (!values.live && (values['page-size'] !== undefined || values['max-pages'] !== undefined))
    throw new UsageError('--page-size and --max-pages are for --live searches: the store answers whole');
  const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > AUTOMATION_SEARCH_PAGE_MAX))
    throw new UsageError(
      `--page-size '${values['page-size']}' is not a page size the server takes: 1 to ${AUTOMATION_SEARCH_PAGE_MAX} automations per page`,
    );
  const maxPages = values['max-pages'] === undefined ? undefined : positiveInt(values['max-pages'], '--max-pages');
  const filters: AutomationFilters = {
    ...(values.query !== undefined ? { query: values.query } : {}),
    ...(values['app-id'] !== undefined ? { appId: values['app-id'] } : {}),
    ...(values['app-ids'] ? { appIds: list(values['app-ids']) } : {}),
    ...(values.draft ? { isDraft: true } : values.published ? { isDraft: false } : {}),
    ...(values.status ? { statuses: list(values.status) } : {}),
    ...(values['trigger-type'] ? { triggerTypes: list(values['trigger-type']) } : {}),
    ...(values['any-trigger-type'] ? { anyTriggerTypes: list(values['any-trigger-type']) } : {}),
    ...(values.ref ? { refs: list(values.ref) } : {}),
  };
  if (values.live && filters.anyTriggerTypes)
    throw new UsageError('--any-trigger-type is an offline filter: the server matches the primary trigger type only (--trigger-type)');
  const format = outputFormat(values);
  const workspace = await openForReading(values, io);
  try {
    const answer = values.live
      ? await searchAutomationsLive(workspace, filters, { ...(pageSize ? { pageSize } : {}), ...(maxPages ? { maxPages } : {}) })
      : searchAutomationsInStore(workspace, filters);
    print(io, format, {
      headers: ['ID', 'Name', 'App', 'Trigger type', 'Enabled', 'Draft'],
      csvHeaders: ['id', 'name', 'app_id', 'app_name', 'primary_trigger_type', 'enabled', 'is_draft'],
      rows: answer.automations.map((a) =>
        format === 'csv'
          ? [a.id, a.name, a.appId, a.appName, a.primaryTriggerType, a.enabled, a.isDraft]
          : [a.id, a.name, a.appName ? `${a.appName} (${a.appId})` : a.appId, a.primaryTriggerType, a.enabled, a.isDraft],
      ),
      json: () => ({
        source: answer.source,
        asOf: answer.asOf,
        complete: answer.complete,
        pages: answer.pages,
        automations: answer.automations.map(({ raw, ...a }) => ({ ...a, json: JSON.parse(raw) as unknown })),
      }),
    });
    const count = `${answer.automations.length} automation${answer.automations.length === 1 ? '' : 's'}`;
    const from =
      answer.source === 'live'
        ? `asked of the tenant at ${answer.asOf ?? '?'} (${answer.pages} page${answer.pages === 1 ? '' : 's'}${
            answer.complete ? '' : `; stopped at the page limit, more remain: --max-pages`
          })`
        : `from the store, automations synced ${answer.asOf ?? 'never'} (offline; --live asks the tenant)`;
    io.err(`${count}: ${from}`);
    return EXIT.ok;
  } finally {
    workspace.close();
  }
}
