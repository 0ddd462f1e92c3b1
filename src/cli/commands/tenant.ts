/**
 * `attest tenant`: runs the reference tenant (src/tenant) until SIGTERM or SIGINT. Prints exactly
 * one JSON line on stdout, `{ url, domain, clientId, clientSecret }`, for the process that started
 * it; everything else goes to stderr.
 */
import { parseFaultSpec, startTenant, type TenantOptions } from '../../tenant/server';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';

const usage = `Usage: attest tenant [options]

Runs the reference tenant: a faithful HTTP server of the Access Governance API on loopback, with a
deterministic dataset. Prints one JSON line {"url","domain","clientId","clientSecret"} on stdout,
then serves until SIGTERM or SIGINT and exits 0. The secret is issued as the real service issues
it (secret-token:conductorone.com:v1:...); "domain" is the audience of client assertions.

Serves (under /api/v1, bearer token required):
  the spec        cross-app scopes (create, list, get, search), remove entitlement membership,
                  access review templates and campaigns, search automations, tasks (get, search,
                  escalate), MCP toolsets (by entitlement, search), finding routing rules
  admin objects   apps (POST search/apps, GET apps/{id}), entitlements (POST search/entitlements,
                  GET apps/{app_id}/entitlements/{id}), app users (POST search/app_users),
                  grants (POST search/grants), the members of an entitlement
                  (GET apps/{app_id}/entitlements/{app_entitlement_id}/users)

Options:
  --host HOST          listen address, loopback only (default 127.0.0.1)
  --port N             port, 0 for a free one (default 0)
  --seed N             dataset and fault seed: the same seed gives the same data (default 1)
  --scale S            demo (hundreds of objects), large (500 times demo: 20,000 automations,
                       scopes and tasks, 200,000 memberships), or a number: that many times demo
                       (default demo)
  --token-ttl SECONDS  expires_in of access tokens (default 3600)
  --faults SPEC        faults to inject into /api/v1, comma-separated name=value:
                         latency=MS          wait MS before every answer (token endpoint too)
                         jitter=MS           plus up to MS more, uniformly (token endpoint too)
                         error5xx=P          share P of requests get 500 or 503
                         rate429=P           share P of requests get 429 with Retry-After
                         retryAfter=N|date   Retry-After as N seconds (default 1) or an HTTP-date
                         rps=N               at most N requests per second, then 429
                         truncate=P          share P of answers are cut halfway
                         html=P              share P of requests get a 200 HTML page
                         dropAfterApply=P    share P of mutations are applied, then the
                                             connection drops without an answer
                         aborted=P           share P of mutations are refused with 409
                                             ABORTED before they are handled
                         emptyPages=P        share P of pages are empty with a live token
                         repeatRow=P         share P of pages list their first row twice
                         cycleTokens=N       page tokens go round in a cycle of N: the page
                                             fetched with a walk's N-th token hands back
                                             its first (1: a token names itself; 2: A, B, A…)
                         tokenExpireEarly=P  share P of access tokens die after one API call
                       P is a probability from 0 to 1, N a whole number. Deterministic under --seed.
                       Example: --faults latency=20,jitter=30,error5xx=0.1,retryAfter=date
  --allow-non-loopback listen on a non-loopback host (never needed for tests or the demo)

Test hooks (bearer token required): GET /_tenant/journal lists every mutation applied;
GET|POST|DELETE /_tenant/faults reads, sets ({"spec": "..."}) or clears the faults.`;

function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be a whole number >= ${min}, not '${value}'`);
  return Number(value);
}

const command: CommandModule = {
  summary: 'run the reference tenant (a local server of the API, for the demo and tests)',
  usage,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseCommandArgs(argv, {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      scale: { type: 'string' },
      'token-ttl': { type: 'string' },
      faults: { type: 'string' },
      'allow-non-loopback': { type: 'boolean' },
    });
    const options: TenantOptions = {
      host: values.host,
      port: integer('port', values.port, 0),
      seed: integer('seed', values.seed, 0),
      tokenTtlSeconds: integer('token-ttl', values['token-ttl'], 1),
      allowNonLoopback: values['allow-non-loopback'] ?? false,
    };
    if (options.port !== undefined && options.port > 65535) throw new UsageError(`--port must be at most 65535, not ${options.port}`);
    if (values.scale !== undefined) {
      const scale = values.scale;
      if (scale === 'demo' || scale === 'large') options.scale = scale;
      else if (/^\d+(\.\d+)?$/.test(scale)) options.scale = Number(scale);
      else throw new UsageError(`--scale must be demo, large or a number, not '${scale}'`);
    }
    if (values.faults !== undefined) {
      try {
        options.faults = parseFaultSpec(values.faults);
      } catch (error) {
        throw new UsageError(`--faults: ${(error as Error).message}`);
      }
    }

    const started = performance.now();
    const tenant = await startTenant(options);
    const counts = tenant.data.counts();
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    io.out(JSON.stringify({ url: tenant.url, domain: tenant.domain, clientId: tenant.clientId, clientSecret: tenant.clientSecret }));
    io.err(
      `reference tenant on ${tenant.url}: seed ${options.seed ?? 1}, ${total} objects, started in ${Math.round(performance.now() - started)} ms`,
    );

    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    await tenant.close();
    return EXIT.ok;
  },
};

export default command;
