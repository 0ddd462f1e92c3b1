import type { CollectionId } from '../../../shared/contract';
import { arr, Cel, Fields, isObject, obj, oneOf, Section, str, Tree, type Json, type JsonObject } from './parts';
import { enumText, humanizeKey } from '../../components/format';
import { ONEOF_KINDS } from '../../../shared/oneof-kinds';
import { MarkdownText } from '../../components/MarkdownText';

const STEP_ACTIONS = [
  'accountLifecycleAction',
  'callFunction',
  'connectorAction',
  'connectorCreateAccount',
  'createAccessReview',
  'createRevokeTasks',
  'createRevokeTasksV2',
  'evaluateExpressions',
  'generatePassword',
  'grantEntitlements',
  'removeFromDelegation',
  'runAutomation',
  'sendEmail',
  'sendChatMessage',
  'setCredential',
  'storeCredential',
  'taskAction',
  'unenrollFromAllAccessProfiles',
  'updateUser',
  'waitForDuration',
  'webhook',
] as const;
const TRIGGER_KINDS = [
  'accessConflict',
  'appUserCreated',
  'appUserUpdated',
  'grantFound',
  'grantDeleted',
  'schedule',
  'scheduleAppUser',
  'scheduleNoUser',
  'usageBasedRevocation',
  'userCreated',
  'userProfileChange',
  'webhook',
] as const;
const SELECTOR_MEMBERS = [
  'accountCelExpression',
  'accountCriteria',
  'allAccessConflicts',
  'allAccounts',
  'allGrants',
  'allUsers',
  'appAccess',
  'appSelectionCriteria',
  'celExpression',
  'excludedResourceTypeSelections',
  'excludedSpecificResources',
  'grantsByCriteria',
  'principalTypeFilter',
  'resourceSelection',
  'resourceTypeSelections',
  'scopeRoleSelection',
  'selectedUsers',
  'specificAccessConflicts',
  'specificResources',
  'userCriteria',
];

/** Every CEL expression inside a value, with its path, so a step's logic reads at a glance. */
function celExpressions(value: Json, path = ''): [string, string][] {
  const found: [string, string][] = [];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...celExpressions(item, `${path}[${i}]`)));
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (typeof item === 'string' && item && (/Cel$/.test(key) || key === 'condition' || key === 'expression' || key === 'expressionCel'))
        found.push([here, item]);
      else found.push(...celExpressions(item, here));
    }
  return found;
}

function FlowNode({
  kind,
  title,
  subtitle,
  body,
  testid,
}: {
  kind: 'trigger' | 'step';
  title: string;
  subtitle?: string;
  body: JsonObject;
  testid: string;
}) {
  const cels = celExpressions(body);
  // The plain settings (schedule, duration, ids…) read inline; nested ones stay under "All settings".
  const plain = Object.entries(body)
    .filter(
      ([key, value]) =>
        (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && !cels.some(([path]) => path === key),
    )
    .slice(0, 6);
  return (
    <div className={`flow-node ${kind}`} data-testid={testid}>
      <div className="flow-kind">{subtitle}</div>
      <div style={{ fontWeight: 600, marginBottom: 6 }}>{title}</div>
      {plain.length > 0 && (
        <div style={{ marginBottom: 6 }}>
          <Fields value={Object.fromEntries(plain)} />
        </div>
      )}
      {cels.length > 0 && (
        <div className="stack" style={{ gap: 6, marginBottom: 6 }}>
          {cels.map(([path, code]) => (
            <div key={path}>
              <div className="muted small mono">{path}</div>
              <Cel code={code} />
            </div>
          ))}
        </div>
      )}
      <details>
        <summary className="muted small">All settings</summary>
        <Tree value={body} />
      </details>
    </div>
  );
}

function AutomationView({ raw }: { raw: JsonObject }) {
  const triggers = arr(raw.triggers).map(obj);
  const steps = arr(raw.automationSteps).map(obj);
  const drafts = arr(raw.draftAutomationSteps).length + arr(raw.draftTriggers).length;
  return (
    <>
      <Section
        title={`Flow: ${triggers.length} trigger${triggers.length === 1 ? '' : 's'}, ${steps.length} step${steps.length === 1 ? '' : 's'}`}
      >
        <div className="flow" data-testid="automation-flow">
          {triggers.length === 0 && <div className="muted">No trigger.</div>}
          {triggers.map((trigger, index) => {
            const found = oneOf(trigger, TRIGGER_KINDS);
            const kind = found?.[0] ?? Object.keys(trigger)[0] ?? 'trigger';
            return (
              <div key={`t${index}`}>
                {index > 0 && (
                  <div className="muted small" style={{ margin: '4px 0 4px 14px' }}>
                    or
                  </div>
                )}
                <FlowNode
                  kind="trigger"
                  subtitle="Trigger"
                  title={humanizeKey(kind)}
                  body={found?.[1] ?? trigger}
                  testid="automation-trigger"
                />
              </div>
            );
          })}
          {steps.map((step, index) => {
            const found = oneOf(step, STEP_ACTIONS);
            const action =
              found?.[0] ?? Object.keys(step).find((k) => !['stepName', 'stepDisplayName', 'skipIfTrueCel'].includes(k)) ?? 'step';
            const { stepName, stepDisplayName, skipIfTrueCel, ...rest } = step;
            return (
              <div key={`s${index}`}>
                <div className="flow-arrow" />
                <FlowNode
                  kind="step"
                  subtitle={`Step ${index + 1} · ${humanizeKey(action)}`}
                  title={str(stepDisplayName) || str(stepName) || humanizeKey(action)}
                  body={{ ...(skipIfTrueCel ? { skipIfTrueCel } : {}), ...(found ? found[1] : rest) }}
                  testid="automation-step"
                />
              </div>
            );
          })}
        </div>
        {drafts > 0 && (
          <div className="muted small">This automation also has a draft ({drafts} draft triggers and steps), shown in the raw JSON.</div>
        )}
      </Section>
      <Section title="About">
        <Fields value={raw} skip={['triggers', 'automationSteps', 'draftAutomationSteps', 'draftTriggers', 'context', 'annotations']} />
      </Section>
    </>
  );
}

export function unwrapCampaign(raw: JsonObject): { campaign: JsonObject; wrapper: JsonObject } {
  const outer = obj(raw.accessReview);
  // The GET wrapper `{accessReview: <view>}`, or the view itself (a list row, as the store keeps it).
  if (isObject(outer.accessReview)) return { campaign: outer.accessReview, wrapper: outer };
  if (Object.keys(outer).length) return { campaign: outer, wrapper: raw };
  return { campaign: raw, wrapper: {} };
}

function ScopeSelector({ value, title }: { value: JsonObject; title: string }) {
  const members = [
    ...SELECTOR_MEMBERS.filter((key) => key in value),
    ...Object.keys(value).filter((key) => !SELECTOR_MEMBERS.includes(key)),
  ];
  return (
    <Section title={title}>
      {members.length === 0 ? (
        <span className="muted">No selector.</span>
      ) : (
        <div className="stack" style={{ gap: 8 }} data-testid="scope-selector">
          {members.map((member) => (
            <div key={member}>
              <span className="badge">{humanizeKey(member)}</span>{' '}
              {isObject(value[member]) && Object.keys(obj(value[member])).length === 0 ? (
                <span className="muted small">selected</span>
              ) : (
                <div style={{ marginTop: 4 }}>
                  <Tree value={value[member] ?? null} />
                </div>
              )}
            </div>
          ))}
        </div>
      )}
    </Section>
  );
}

function CampaignView({ raw }: { raw: JsonObject }) {
  const { campaign, wrapper } = unwrapCampaign(raw);
  return (
    <>
      <Section title="Campaign">
        <Fields
          value={campaign}
          skip={[
            'scopeV2',
            'scope',
            'inclusionScope',
            'exclusionScope',
            'notificationConfig',
            'signatureConfig',
            'reviewerAttributeConfig',
            'columnConfig',
            'campaignInsights',
            'multiApp',
            'bindings',
          ]}
        />
      </Section>
      <ScopeSelector title="Scope (scopeV2)" value={obj(campaign.scopeV2)} />
      {campaign.campaignInsights !== undefined && str(obj(campaign.campaignInsights).markdown) && (
        <Section title="Insights">
          <MarkdownText text={str(obj(campaign.campaignInsights).markdown)} />
        </Section>
      )}
      <div className="grid cols-2">
        {[
          'inclusionScope',
          'exclusionScope',
          'scope',
          'notificationConfig',
          'signatureConfig',
          'reviewerAttributeConfig',
          'columnConfig',
        ].map((key) =>
          campaign[key] !== undefined ? (
            <Section key={key} title={humanizeKey(key)}>
              <Tree value={campaign[key] ?? null} />
            </Section>
          ) : null,
        )}
      </div>
      {Object.keys(wrapper).length > 0 && (
        <Section title="Permissions and paths">
          <Fields value={wrapper} skip={['accessReview']} />
        </Section>
      )}
    </>
  );
}

function TemplateView({ raw }: { raw: JsonObject }) {
  const template = isObject(raw.accessReviewTemplate) ? raw.accessReviewTemplate : raw;
  const groups = [
    'notificationConfig',
    'recurrenceRule',
    'signatureConfig',
    'inclusionScope',
    'columnConfig',
    'reviewerAttributeConfig',
    'chatChannel',
  ];
  return (
    <>
      <Section title="Settings">
        <Fields value={template} skip={['scope', 'annotations', ...groups]} />
      </Section>
      <ScopeSelector title="Scope" value={obj(template.scope)} />
      <div className="grid cols-2">
        {groups.map((key) =>
          template[key] !== undefined ? (
            <Section key={key} title={humanizeKey(key)}>
              <Tree value={template[key] ?? null} />
            </Section>
          ) : null,
        )}
      </div>
    </>
  );
}

function RoutingRuleView({ raw }: { raw: JsonObject }) {
  const kinds = ONEOF_KINDS.RoutingRuleAction;
  const action = oneOf(obj(raw.action), kinds) ?? oneOf(obj(raw.action), Object.keys(obj(raw.action)));
  // The kind as the list, the CLI and the workbook write it: one this version does not know, as sent and marked.
  const kind = action ? enumText('RoutingRuleAction', action[0]) : null;
  return (
    <>
      <Section title="Rule">
        <Fields value={raw} skip={['action']} />
      </Section>
      <Section title="Action">
        {action && kind ? (
          <div data-testid="rule-action">
            <span className={`badge ${kind.known ? '' : 'unknown'}`} title={kind.title}>
              {kind.label}
            </span>
            <div style={{ marginTop: 8 }}>
              <Fields value={action[1]} />
            </div>
          </div>
        ) : (
          <Tree value={raw.action ?? null} />
        )}
      </Section>
    </>
  );
}

function ToolsetView({ raw }: { raw: JsonObject }) {
  const profile = isObject(raw.profile) ? raw.profile : raw;
  return (
    <>
      <Section title="Toolset">
        <Fields value={profile} skip={['appId', 'appEntitlementId', 'connectorId']} />
      </Section>
      <Section title="Entitlement">
        <Fields
          value={{
            appId: profile.appId ?? null,
            appEntitlementId: profile.appEntitlementId ?? null,
            connectorId: profile.connectorId ?? null,
          }}
        />
      </Section>
    </>
  );
}

function ScopeView({ raw }: { raw: JsonObject }) {
  const scope = isObject(raw.scope) ? raw.scope : raw;
  return (
    <Section title="Scope">
      <Fields value={scope} />
    </Section>
  );
}

/** An object stored inside the view that carries it (`appUser`, `task`...), field by field. */
function MemberView({ raw, path, title }: { raw: JsonObject; path: string[]; title: string }) {
  let inner: JsonObject = raw;
  for (const key of path) inner = isObject(inner[key]) ? inner[key] : inner;
  return (
    <Section title={title}>
      <Fields value={inner} />
    </Section>
  );
}

function EntitlementView({ raw }: { raw: JsonObject }) {
  const type = isObject(raw.appResourceType) ? raw.appResourceType : null;
  return (
    <>
      <MemberView raw={raw} path={['appEntitlementView', 'appEntitlement']} title="Entitlement" />
      <Section title="Type (app resource type)">
        {type ? <Fields value={type} /> : <span className="muted">Not given by the tenant.</span>}
      </Section>
    </>
  );
}

export function Structured({ collection, raw }: { collection: CollectionId; raw: JsonObject }) {
  switch (collection) {
    case 'automations':
      return <AutomationView raw={raw} />;
    case 'campaigns':
      return <CampaignView raw={raw} />;
    case 'templates':
      return <TemplateView raw={raw} />;
    case 'routing-rules':
      return <RoutingRuleView raw={raw} />;
    case 'toolsets':
      return <ToolsetView raw={raw} />;
    case 'scopes':
      return <ScopeView raw={raw} />;
    case 'apps':
      return <MemberView raw={raw} path={[]} title="App" />;
    case 'entitlements':
      return <EntitlementView raw={raw} />;
    case 'app-users':
      return <MemberView raw={raw} path={['appUser']} title="App user" />;
    case 'memberships':
      return <MemberView raw={raw} path={[]} title="Membership" />;
    case 'tasks':
      return <MemberView raw={raw} path={['task']} title="Task" />;
    case 'users':
      return <MemberView raw={raw} path={['user']} title="User" />;
    case 'policies':
      return <MemberView raw={raw} path={[]} title="Policy" />;
  }
}
