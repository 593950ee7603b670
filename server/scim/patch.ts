import { invalidValue, ScimError } from './errors.ts';
import { checkFilter, matchesElement } from './evaluate.ts';
import { parseAttrPath, parseFilter, type Filter } from './filter.ts';
import { findAttr, PATCH_SCHEMA, SCHEMAS_OF, type AttrDef, type ResourceKind } from './schemas.ts';

/**
 * RFC 7644 §3.5.2 PATCH, applied to a copy of the resource as answered; the caller then reads the
 * wanted state from the copy exactly as PUT reads its body, so both share one write path and
 * nothing is stored until every operation has applied. Unknown paths → invalidPath; a filter
 * that selects nothing for replace → noTarget; readOnly attributes may be written only unchanged.
 */

type Obj = Record<string, unknown>;
type Op = { op: 'add' | 'replace' | 'remove'; path: string | null; value: unknown };
type Target = { urn: string; def: AttrDef; subDef: AttrDef | null; filter: Filter | null; sub: AttrDef | null };

/** Standard attributes Ledgerline does not store: identity providers send them; a write of them changes nothing. */
const IGNORED = new Set([
  'nickname', 'profileurl', 'title', 'usertype', 'preferredlanguage', 'locale', 'timezone', 'phonenumbers', 'addresses', 'ims', 'photos',
  'entitlements', 'roles', 'x509certificates', 'password', 'employeenumber', 'costcenter', 'organization', 'division', 'name.middlename',
  'name.honorificprefix', 'name.honorificsuffix',
]);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function readPatchOps(body: unknown): Op[] {
  if (!isObj(body) || !Array.isArray(body.schemas) || !body.schemas.includes(PATCH_SCHEMA)) {
    throw new ScimError(400, 'invalidSyntax', `A PATCH body names the schema ${PATCH_SCHEMA}.`);
  }
  const ops = body.Operations;
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, 'invalidSyntax', 'Operations must be a non-empty array.');
  if (ops.length > 1000) throw new ScimError(400, 'tooMany', 'At most 1,000 operations per PATCH.');
  return ops.map((o, i) => {
    const op = isObj(o) && typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, 'invalidSyntax', `Operations[${i}].op must be add, replace or remove.`);
    const path = isObj(o) && o.path !== undefined ? o.path : null;
    if (path !== null && typeof path !== 'string') throw new ScimError(400, 'invalidPath', `Operations[${i}].path must be a string.`);
    const value = (o as Obj).value;
    if (op !== 'remove' && value === undefined) throw new ScimError(400, 'invalidValue', `Operations[${i}] (${op}) needs a value.`);
    return { op, path, value };
  });
}

const badPath = (path: string, kind: ResourceKind) => new ScimError(400, 'invalidPath', `"${path}" is not an attribute of ${kind}.`);

/** `attr`, `attr.sub`, `urn:…:attr`, `attr[filter]`, `attr[filter].sub`; null for an ignored attribute. */
function parseTarget(kind: ResourceKind, path: string): Target | null {
  const open = path.indexOf('[');
  const head = open < 0 ? path : path.slice(0, open);
  const parsed = parseAttrPath(head.trim());
  if (!parsed) throw badPath(path, kind);
  let filter: Filter | null = null;
  let subName: string | null = null;
  if (open >= 0) {
    const close = path.lastIndexOf(']');
    if (close < open || parsed.sub) throw new ScimError(400, 'invalidPath', `"${path}" is not a valid path.`);
    try {
      filter = parseFilter(path.slice(open + 1, close));
    } catch (e) {
      throw new ScimError(400, 'invalidPath', `"${path}": ${(e as Error).message}`);
    }
    const rest = path.slice(close + 1);
    if (rest !== '' && !/^\.[A-Za-z][\w$-]*$/.test(rest)) throw new ScimError(400, 'invalidPath', `"${path}" is not a valid path.`);
    subName = rest ? rest.slice(1) : null;
  }
  const found = findAttr(kind, parsed.uri, parsed.attr, parsed.sub);
  if (!found) {
    if (IGNORED.has(`${parsed.attr}${parsed.sub ? `.${parsed.sub}` : ''}`.toLowerCase()) || IGNORED.has(parsed.attr.toLowerCase())) return null;
    throw badPath(path, kind);
  }
  const sub = subName ? found.def.subAttributes?.find((a) => a.name.toLowerCase() === subName!.toLowerCase()) ?? null : null;
  if (subName && !sub) throw badPath(path, kind);
  if (filter) {
    if (!found.def.multiValued) throw new ScimError(400, 'invalidPath', `"${path}": only multi-valued attributes take a filter.`);
    checkFilter(kind, { op: 'valuePath', path: parsed, filter });
  }
  return { ...found, filter, sub };
}

function containerOf(doc: Obj, urn: string, kind: ResourceKind): Obj {
  if (urn === SCHEMAS_OF[kind][0]!.urn) return doc;
  if (!isObj(doc[urn])) doc[urn] = {};
  return doc[urn] as Obj;
}

/** A readOnly attribute may be "written" only with the value it has. */
function assertWritable(def: AttrDef, before: unknown, after: unknown, path: string): void {
  if (def.mutability === 'readOnly' && !same(before, after)) throw new ScimError(400, 'mutability', `${path} is read-only.`);
}

function applyFiltered(t: Target, c: Obj, op: Op, path: string): void {
  const list = Array.isArray(c[t.def.name]) ? (c[t.def.name] as Obj[]) : [];
  const hit = list.filter((el) => isObj(el) && matchesElement(t.def, el, t.filter!));
  if (op.op === 'remove') {
    c[t.def.name] = t.sub ? list.map((el) => (hit.includes(el) ? omit(el, t.sub!.name) : el)) : list.filter((el) => !hit.includes(el));
    return;
  }
  if (hit.length === 0) throw new ScimError(400, 'noTarget', `"${path}" selects no value.`);
  c[t.def.name] = list.map((el) => {
    if (!hit.includes(el)) return el;
    if (t.sub) return { ...el, [t.sub.name]: op.value };
    if (!isObj(op.value)) throw invalidValue(`${path} takes an object.`);
    return { ...el, ...op.value };
  });
}

const omit = (o: Obj, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** Multi-valued `remove` with a value (Entra's member removal): drops the elements whose `value` is listed. */
function removeListed(list: unknown[], value: unknown): unknown[] {
  const gone = new Set((Array.isArray(value) ? value : [value]).map((v) => (isObj(v) ? v.value : v)));
  return list.filter((el) => !(isObj(el) && gone.has(el.value)));
}

function applyAt(kind: ResourceKind, doc: Obj, op: Op, path: string): void {
  const t = parseTarget(kind, path);
  if (!t) return;
  const c = containerOf(doc, t.urn, kind);
  const before = structuredClone(c[t.def.name]);
  if (t.filter) applyFiltered(t, c, op, path);
  else if (t.subDef) {
    if (t.def.multiValued) throw new ScimError(400, 'invalidPath', `"${path}": name the value with a filter, e.g. ${t.def.name}[type eq "work"].${t.subDef.name}.`);
    const obj = isObj(c[t.def.name]) ? { ...(c[t.def.name] as Obj) } : {};
    if (op.op === 'remove') delete obj[t.subDef.name];
    else obj[t.subDef.name] = op.value;
    c[t.def.name] = obj;
  } else if (op.op === 'remove') {
    if (t.def.multiValued && op.value !== undefined && Array.isArray(c[t.def.name])) c[t.def.name] = removeListed(c[t.def.name] as unknown[], op.value);
    else delete c[t.def.name];
  } else if (t.def.multiValued) {
    const values = Array.isArray(op.value) ? op.value : [op.value];
    const existing = op.op === 'add' && Array.isArray(c[t.def.name]) ? (c[t.def.name] as unknown[]) : [];
    c[t.def.name] = [...existing, ...values.filter((v) => !existing.some((e) => same(e, v)))];
  } else if (t.def.type === 'complex' && op.op === 'add' && isObj(op.value) && isObj(c[t.def.name])) {
    c[t.def.name] = { ...(c[t.def.name] as Obj), ...op.value };
  } else c[t.def.name] = op.value;
  assertWritable(t.def, before, c[t.def.name], path);
}

/** add/replace without a path: each member of the value object as its own path (extension objects member by member). */
function applyWhole(kind: ResourceKind, doc: Obj, op: Op): void {
  if (op.op === 'remove') throw new ScimError(400, 'noTarget', 'A remove operation needs a path.');
  if (!isObj(op.value)) throw invalidValue('An operation without a path takes an object value.');
  for (const [key, value] of Object.entries(op.value)) {
    if (key === 'schemas') continue;
    const ext = SCHEMAS_OF[kind].slice(1).find((s) => s.urn.toLowerCase() === key.toLowerCase());
    if (ext && isObj(value)) {
      for (const [k, v] of Object.entries(value)) applyAt(kind, doc, { ...op, value: v }, `${ext.urn}:${k}`);
    } else applyAt(kind, doc, { ...op, value }, key);
  }
}

/** The resource after every operation, or the first operation's refusal (nothing is stored either way). */
export function applyPatch(kind: ResourceKind, resource: Obj, ops: Op[]): Obj {
  const doc = structuredClone(resource);
  for (const op of ops) {
    if (op.path === null) applyWhole(kind, doc, op);
    else applyAt(kind, doc, op, op.path);
  }
  return doc;
}
