import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, SCHEMAS_OF, USER_SCHEMA } from './schemas.ts';
import { MAX_COUNT } from './paging.ts';

/** RFC 7644 §4: what this service provider supports, its schemas and its resource types. */

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/settings/integrations/scim`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [{
      type: 'oauthbearertoken', name: 'Bearer token', primary: true,
      description: 'The token created under Settings → Integrations → SCIM provisioning, as "Authorization: Bearer <token>".',
    }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

const NAMES: Record<string, string> = { [USER_SCHEMA]: 'User', [ENTERPRISE_SCHEMA]: 'EnterpriseUser', [GROUP_SCHEMA]: 'Group' };

export function schemaResources(base: string) {
  return [...SCHEMAS_OF.User, ...SCHEMAS_OF.Group].map((s) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: s.urn, name: NAMES[s.urn], description: `${NAMES[s.urn]} as Ledgerline stores it.`, attributes: s.attrs,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.urn}` },
  }));
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'User', name: 'User', endpoint: '/Users',
      description: 'People of the business.', schema: USER_SCHEMA, schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'Group', name: 'Group', endpoint: '/Groups',
      description: 'Departments.', schema: GROUP_SCHEMA, schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export const listOf = (resources: unknown[]) => ({
  schemas: [LIST_SCHEMA], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources,
});
