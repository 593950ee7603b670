/**
 * The resources as RFC 7643 describes them: what `/Schemas` answers, and what filters and PATCH
 * paths are checked against (an attribute not listed here is unknown: invalidFilter / invalidPath).
 * Only what Ledgerline stores is listed.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type AttrDef = {
  name: string; type: 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference'; multiValued: boolean; description: string;
  required: boolean; caseExact: boolean; mutability: Mutability; returned: 'always' | 'default'; uniqueness: 'none' | 'server';
  subAttributes?: AttrDef[]; referenceTypes?: string[];
};

const attr = (name: string, description: string, o: Partial<AttrDef> = {}): AttrDef => ({
  name, type: 'string', multiValued: false, description, required: false, caseExact: false, mutability: 'readWrite',
  returned: 'default', uniqueness: 'none', ...o,
});

const META = attr('meta', 'Resource metadata.', {
  type: 'complex', mutability: 'readOnly', subAttributes: [
    attr('resourceType', 'User or Group.', { mutability: 'readOnly', caseExact: true }),
    attr('created', 'When SCIM first saw the resource.', { type: 'dateTime', mutability: 'readOnly' }),
    attr('lastModified', 'Last change.', { type: 'dateTime', mutability: 'readOnly' }),
    attr('location', 'The resource URI.', { type: 'reference', mutability: 'readOnly', caseExact: true, referenceTypes: ['uri'] }),
    attr('version', 'Weak entity tag.', { mutability: 'readOnly', caseExact: true }),
  ],
});
const ID = attr('id', 'Ledgerline id.', { mutability: 'readOnly', caseExact: true, returned: 'always', uniqueness: 'server' });
const EXTERNAL_ID = attr('externalId', "The identity provider's id.", { caseExact: true });

export const USER_ATTRS: AttrDef[] = [
  ID, EXTERNAL_ID,
  attr('userName', 'The work email address people sign in with.', { required: true, uniqueness: 'server', mutability: 'immutable' }),
  attr('name', 'The person\'s name.', {
    type: 'complex', subAttributes: [
      attr('givenName', 'First name.'), attr('familyName', 'Last name.'), attr('formatted', 'Full name.', { mutability: 'readOnly' }),
    ],
  }),
  attr('displayName', 'Full name.', { mutability: 'readOnly' }),
  attr('active', 'False: the person is suspended and signed out.', { type: 'boolean' }),
  attr('emails', 'The work address (always userName).', {
    multiValued: true, type: 'complex', subAttributes: [
      attr('value', 'Address.'), attr('type', 'work.'), attr('primary', 'Primary.', { type: 'boolean' }),
    ],
  }),
  attr('groups', 'The department, as a group.', {
    multiValued: true, type: 'complex', mutability: 'readOnly', subAttributes: [
      attr('value', 'Group id.', { mutability: 'readOnly', caseExact: true }),
      attr('$ref', 'Group URI.', { type: 'reference', mutability: 'readOnly', referenceTypes: ['Group'] }),
      attr('display', 'Department name.', { mutability: 'readOnly' }),
    ],
  }),
  META,
];

export const ENTERPRISE_ATTRS: AttrDef[] = [
  attr('department', 'Department name (an existing department).'),
  attr('manager', 'Who the person reports to.', {
    type: 'complex', subAttributes: [
      attr('value', 'Manager id.', { caseExact: true }),
      attr('$ref', 'Manager URI.', { type: 'reference', mutability: 'readOnly', referenceTypes: ['User'] }),
      attr('displayName', 'Manager name.', { mutability: 'readOnly' }),
    ],
  }),
];

export const GROUP_ATTRS: AttrDef[] = [
  ID, EXTERNAL_ID,
  attr('displayName', 'Department name.', { required: true, uniqueness: 'server' }),
  attr('members', 'People in the department.', {
    multiValued: true, type: 'complex', subAttributes: [
      attr('value', 'User id.', { mutability: 'immutable', caseExact: true }),
      attr('$ref', 'User URI.', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'] }),
      attr('display', 'Name.', { mutability: 'readOnly' }),
      attr('type', 'User.', { mutability: 'immutable' }),
    ],
  }),
  META,
];

export type ResourceKind = 'User' | 'Group';

/** The schema URNs of a resource kind and each one's attributes. */
export const SCHEMAS_OF: Record<ResourceKind, { urn: string; attrs: AttrDef[] }[]> = {
  User: [{ urn: USER_SCHEMA, attrs: USER_ATTRS }, { urn: ENTERPRISE_SCHEMA, attrs: ENTERPRISE_ATTRS }],
  Group: [{ urn: GROUP_SCHEMA, attrs: GROUP_ATTRS }],
};

/**
 * The definition a path names (case-insensitive, RFC 7643 §2.1): the schema URN it belongs to,
 * the attribute, and the sub-attribute when one is named. A path without a URN is looked up in
 * the core schema; null when no schema has it.
 */
export function findAttr(kind: ResourceKind, uri: string | null, name: string, sub: string | null):
  { urn: string; def: AttrDef; subDef: AttrDef | null } | null {
  const schemas = SCHEMAS_OF[kind];
  const schema = uri ? schemas.find((s) => s.urn.toLowerCase() === uri.toLowerCase()) : schemas[0];
  const def = schema?.attrs.find((a) => a.name.toLowerCase() === name.toLowerCase());
  if (!schema || !def) return null;
  if (!sub) return { urn: schema.urn, def, subDef: null };
  const subDef = def.subAttributes?.find((a) => a.name.toLowerCase() === sub.toLowerCase());
  return subDef ? { urn: schema.urn, def, subDef } : null;
}
