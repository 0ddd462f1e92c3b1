/**
 * The names of the contract (src/shared/contract.ts), without its schemas: what the preload needs
 * to expose one named function per channel, kept free of zod so the sandboxed preload stays tiny.
 * contract.ts is typed against these lists, so a channel without a schema (or a schema without a
 * name here) does not compile.
 */
export const CHANNEL_NAMES = [
  'appInfo',
  'aboutApp',
  'listConnections',
  'inspectCredentials',
  'testConnection',
  'saveConnection',
  'provideSecret',
  'replaceCredential',
  'removeConnection',
  'openWorkspace',
  'openDemoTenant',
  'setAutoRun',
  'autoRunStatus',
  'connectionState',
  'startSync',
  'cancelSync',
  'collections',
  'listRuns',
  'listObjects',
  'getObject',
  'objectHistory',
  'entitlementToolset',
  'refreshObject',
  'addTemplates',
  'addedTemplates',
  'resourceServers',
  'filterChoices',
  'searchAutomations',
  'campaignItems',
  'compareRuns',
  'search',
  'overview',
  'outboxList',
  'outboxBatches',
  'outboxBulk',
  'outboxEnqueue',
  'outboxCheck',
  'outboxEdit',
  'outboxDiscard',
  'outboxRetry',
  'outboxResolve',
  'outboxPreviewImport',
  'outboxImport',
  'outboxSend',
  'outboxCancelSend',
  'outboxReconcile',
  'outboxJournal',
  'reportCatalog',
  'exportReport',
  'cancelExport',
  'verifyWorkbook',
  'exportReviewWorksheet',
  'importReviewDecisions',
  'openExternal',
  'showInFolder',
  'showOpenDialog',
  'showSaveDialog',
] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = [
  'syncProgress',
  'connectionState',
  'sendProgress',
  'exportProgress',
  'menuCommand',
  'autoRun',
  'notice',
  'storeChanged',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The subscription function for an event: `syncProgress` -> `onSyncProgress`. */
export type SubscriberName<E extends EventName> = `on${Capitalize<E>}`;
export function subscriberName<E extends EventName>(event: E): SubscriberName<E> {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as SubscriberName<E>;
}

/** Every name on `window.attest`: the channels, then one subscription per event. */
export const API_NAMES: readonly string[] = [...CHANNEL_NAMES, ...EVENT_NAMES.map(subscriberName)];

/** IPC channel strings, all under one prefix: the main side answers only these. */
export const IPC_PREFIX = 'attest:';
export const ipcChannel = (name: ChannelName): string => `${IPC_PREFIX}rpc:${name}`;
export const ipcEvent = (name: EventName): string => `${IPC_PREFIX}event:${name}`;
