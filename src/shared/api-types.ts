/**
 * TypeScript types of every resource, nested object, request and response of the Access
 * Governance API: the spec's tables, completed from the vendor's OpenAPI document where the spec
 * says "not shown" (list endpoints, exact field names, the error shape). Members that only the
 * vendor document has are marked "Vendor field"; where the two name one member differently
 * (`chatChannel` / `slackChannel`, `sendChatMessage` / `sendSlackMessage`, `workerResourceAction` /
 * `batonResourceAction`), both names are typed. One module per area under `api-types/`; import
 * from here.
 */
export * from './api-types/common';
export * from './api-types/scope';
export * from './api-types/app';
export * from './api-types/entitlement';
export * from './api-types/access-review';
export * from './api-types/automation';
export * from './api-types/form';
export * from './api-types/policy';
export * from './api-types/task';
export * from './api-types/mcp';
export * from './api-types/routing-rule';
export * from './api-types/identity';
