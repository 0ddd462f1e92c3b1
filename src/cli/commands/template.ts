import { addedTemplates, addTemplatesById, removeAddedTemplates } from '../../main/app/templates';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { escapeControls } from '../terminal-text';
import { textLine } from '../output';
import { openForReading, openWorkspaceFor, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest template add ID... [--json] [--connection NAME] [--data-dir DIR] [--store FILE]
       attest template list [--json] [--connection NAME] [--data-dir DIR] [--store FILE]
       attest template remove ID... [--json] [--connection NAME] [--data-dir DIR] [--store FILE]

The API has no list of access review templates: a sync reads those that campaigns and automations
name. \`add\` reads each template by its id from the tenant now (GET /access_review_template/{id}),
stores it, and adds its id to those every later sync reads, so it can be shown, searched, reported
and updated (\`attest queue add update-template\`) like any synced template. An id the tenant does not
have (404) is named and not added; the other ids are added all the same. It needs the tenant.
\`list\` prints the added ids (offline): each with its stored name, or why the store does not hold it.
\`remove\` stops reading them: a template no campaign or automation names then leaves the store at the
next sync. A template the tenant answers 404 for stays added (every sync reports it) until removed.
${STORE_USAGE}
  --json              add: {added: [{id, title, newlyAdded}], notFound, failed: [{id, error}], runId, note};
                      list: [{id, title, stored, referenced}]; remove: {removed, notAdded}

Exit 0: every id done. Exit 1: some id not found or not read (the others are done).
Exit 2: no ID given, or an unknown subcommand. Exit 3/4: the tenant refused the credential / cannot be reached.`;

async function add(ids: string[], values: Parameters<typeof openWorkspaceFor>[0] & { json?: boolean }, io: CliIO): Promise<number> {
  const workspace = await openWorkspaceFor(values, io);
  try {
    const result = await addTemplatesById(workspace, ids);
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else for (const t of result.added) textLine(io, `${t.id}  ${t.title}${t.newlyAdded ? '' : '  (added before; read again)'}`);
    for (const id of result.notFound) io.err(`template ${escapeControls(id)}: the tenant has no such template (404); not added`);
    for (const f of result.failed) io.err(`template ${escapeControls(f.id)}: not read (${f.error}); not added`);
    if (result.note) io.err(result.note);
    else if (result.added.length > 0 && !values.json) {
      const one = result.added.length === 1;
      const where = result.runId === null ? 'the store held them as read' : `stored in run ${result.runId}`;
      io.err(`${result.added.length} template${one ? '' : 's'} added (${where}); every sync now reads ${one ? 'it' : 'them'}.`);
    }
    return result.notFound.length + result.failed.length > 0 ? EXIT.other : EXIT.ok;
  } finally {
    workspace.close();
  }
}

const command: CommandModule = {
  summary: 'templates added by id (the API has no template list): add, list, remove',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, STORE_OPTIONS, true);
    const [action, ...ids] = positionals;
    if (action === 'add') {
      if (ids.length === 0) throw new UsageError('give at least one template ID');
      return add(ids, values, io);
    }
    if (action === 'list' || action === 'remove') {
      if (action === 'list' && ids.length > 0) throw new UsageError('list takes no ID');
      if (action === 'remove' && ids.length === 0) throw new UsageError('give at least one template ID to remove');
      const workspace = await openForReading(values, io);
      try {
        if (action === 'remove') {
          const result = removeAddedTemplates(workspace, ids);
          if (values.json) io.out(JSON.stringify(result, null, 2));
          else for (const id of result.removed) textLine(io, `${id}  no longer added`);
          for (const id of result.notAdded) io.err(`template ${escapeControls(id)}: was not added by id`);
          return result.notAdded.length > 0 ? EXIT.other : EXIT.ok;
        }
        const list = addedTemplates(workspace);
        if (values.json) io.out(JSON.stringify(list, null, 2));
        else if (list.length === 0) io.err('No template added by id.');
        else
          for (const t of list)
            textLine(
              io,
              `${t.id}  ${t.stored ? t.title : '(not in the store: the tenant answered 404 at the last read)'}${t.referenced ? '  (also referenced)' : ''}`,
            );
        return EXIT.ok;
      } finally {
        workspace.close();
      }
    }
    throw new UsageError(
      action === undefined ? 'give a subcommand: add, list or remove' : `unknown subcommand '${action}': add, list or remove`,
    );
  },
};

export default command;
