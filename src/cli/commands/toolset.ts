import { entitlementToolset } from '../../main/app/toolsets';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { textLine } from '../output';
import { openForReading, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest toolset --app ID --entitlement ID [--offline] [--json] [--connection NAME] [--data-dir DIR] [--store FILE]

The MCP toolset linked to an app entitlement, through the spec's lookup
(GET /apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}) while the tenant answers,
else from the toolsets the last sync stored; it says which answered, and as of when (the lookup's
time, or when the store last synced the toolsets), and why the store answered.
  --app ID            the app's id
  --entitlement ID    the app entitlement's id
  --offline           answer from the store without asking the tenant
${STORE_USAGE}
  --json              {source, asOf, reason, toolset: {id, title, json} | null} on stdout

Exit 0: answered (a toolset, or none linked). Exit 2: a missing option, or no local data yet.`;

const command: CommandModule = {
  summary: "an entitlement's MCP toolset: asked of the tenant, or from the store offline",
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      ...STORE_OPTIONS,
      app: { type: 'string' },
      entitlement: { type: 'string' },
      offline: { type: 'boolean', default: false },
    });
    const appId = values.app?.trim();
    const appEntitlementId = values.entitlement?.trim();
    if (!appId || !appEntitlementId) throw new UsageError('give --app ID and --entitlement ID');
    const workspace = await openForReading(values, io);
    try {
      const found = await entitlementToolset(workspace, { online: !values.offline, appId, appEntitlementId });
      if (values.json) {
        const toolset = found.toolset && {
          id: found.toolset.id,
          title: found.toolset.title,
          json: JSON.parse(found.toolset.raw) as unknown,
        };
        io.out(JSON.stringify({ source: found.source, asOf: found.asOf, reason: found.reason, toolset }, null, 2));
        return EXIT.ok;
      }
      const from =
        found.source === 'live'
          ? `asked of the tenant at ${found.asOf ?? '?'}`
          : `from the store, toolsets synced ${found.asOf ?? 'never'} (${found.reason ?? 'offline'})`;
      textLine(io, found.toolset ? `${found.toolset.title} (${found.toolset.id})` : 'no MCP toolset is linked to this entitlement');
      io.err(`entitlement ${appEntitlementId} of app ${appId}: ${from}`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
