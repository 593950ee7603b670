import { ScimError } from './errors.ts';
import type { AttrPath, CompareOp, Filter, Literal } from './filter.ts';
import { findAttr, type AttrDef, type ResourceKind } from './schemas.ts';

/**
 * A parsed filter applied to a resource as it is answered (the same JSON), per RFC 7644
 * §3.4.2.2: attribute names case-insensitive; strings compared by their schema's caseExact;
 * a multi-valued attribute matches when any value does (a complex one through its `value`);
 * dateTimes compared as instants; booleans only with eq/ne.
 */

type Obj = Record<string, unknown>;
const invalid = (detail: string) => new ScimError(400, 'invalidFilter', detail);
const show = (p: AttrPath) => `${p.uri ? `${p.uri}:` : ''}${p.attr}${p.sub ? `.${p.sub}` : ''}`;

const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** The values a path reaches in a resource, and the definition that types them. */
function resolve(kind: ResourceKind, resource: Obj, path: AttrPath): { values: unknown[]; def: AttrDef } {
  const found = findAttr(kind, path.uri, path.attr, path.sub);
  if (!found) throw invalid(`"${show(path)}" is not an attribute of ${kind}.`);
  const container = containerOf(resource, found.urn, kind);
  const top = asArray(container[found.def.name]);
  if (found.subDef) return { values: top.flatMap((el) => asArray((el as Obj)[found.subDef!.name])), def: found.subDef };
  if (found.def.type === 'complex') {
    const valueDef = found.def.subAttributes?.find((a) => a.name === 'value');
    if (!valueDef) throw invalid(`"${show(path)}" is complex: name one of its sub-attributes.`);
    return { values: top.map((el) => (el as Obj).value), def: valueDef };
  }
  return { values: top, def: found.def };
}

/** Core attributes sit on the resource; an extension's under its URN. */
function containerOf(resource: Obj, urn: string, kind: ResourceKind): Obj {
  const core = kind === 'User' ? 'urn:ietf:params:scim:schemas:core:2.0:User' : 'urn:ietf:params:scim:schemas:core:2.0:Group';
  if (urn === core) return resource;
  return (resource[urn] as Obj | undefined) ?? {};
}

function compareOne(def: AttrDef, actual: unknown, op: CompareOp, expected: Literal, name: string): boolean {
  if (def.type === 'boolean') {
    if (op !== 'eq' && op !== 'ne') throw invalid(`${name} is a boolean: only eq and ne compare it.`);
    if (typeof expected !== 'boolean') throw invalid(`${name} is a boolean: compare it with true or false.`);
    return op === 'eq' ? actual === expected : actual !== expected;
  }
  if (typeof expected !== 'string') throw invalid(`${name} is a string: compare it with a quoted value.`);
  if (typeof actual !== 'string') return op === 'ne';
  if (def.type === 'dateTime') {
    const a = Date.parse(actual);
    const e = Date.parse(expected);
    if (Number.isNaN(e)) throw invalid(`${name} is a dateTime: "${expected}" is not one.`);
    return ordered(op, a - e, () => actual.includes(expected), () => actual.startsWith(expected), () => actual.endsWith(expected));
  }
  const a = def.caseExact ? actual : actual.toLowerCase();
  const e = def.caseExact ? expected : expected.toLowerCase();
  return ordered(op, a < e ? -1 : a > e ? 1 : 0, () => a.includes(e), () => a.startsWith(e), () => a.endsWith(e));
}

function ordered(op: CompareOp, diff: number, co: () => boolean, sw: () => boolean, ew: () => boolean): boolean {
  switch (op) {
    case 'eq': return diff === 0;
    case 'ne': return diff !== 0;
    case 'gt': return diff > 0;
    case 'ge': return diff >= 0;
    case 'lt': return diff < 0;
    case 'le': return diff <= 0;
    case 'co': return co();
    case 'sw': return sw();
    case 'ew': return ew();
  }
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Inside `emails[…]`: paths name the element's sub-attributes. */
export function matchesElement(def: AttrDef, el: Obj, filter: Filter): boolean {
  switch (filter.op) {
    case 'and': return matchesElement(def, el, filter.left) && matchesElement(def, el, filter.right);
    case 'or': return matchesElement(def, el, filter.left) || matchesElement(def, el, filter.right);
    case 'not': return !matchesElement(def, el, filter.filter);
    case 'valuePath': throw invalid('A value filter cannot nest another.');
    default: {
      const sub = filter.path.sub || filter.path.uri ? null : def.subAttributes?.find((a) => a.name.toLowerCase() === filter.path.attr.toLowerCase());
      if (!sub) throw invalid(`"${show(filter.path)}" is not a sub-attribute of ${def.name}.`);
      const v = el[sub.name];
      if (filter.op === 'pr') return present(v);
      return compareOne(sub, v, filter.op, filter.value, `${def.name}.${sub.name}`);
    }
  }
}

/** Whether `resource` meets `filter`; an unknown attribute or a mistyped comparison is 400 invalidFilter. */
export function matches(kind: ResourceKind, resource: Obj, filter: Filter): boolean {
  switch (filter.op) {
    case 'and': return matches(kind, resource, filter.left) && matches(kind, resource, filter.right);
    case 'or': return matches(kind, resource, filter.left) || matches(kind, resource, filter.right);
    case 'not': return !matches(kind, resource, filter.filter);
    case 'valuePath': {
      const found = findAttr(kind, filter.path.uri, filter.path.attr, null);
      if (!found || !found.def.multiValued || found.def.type !== 'complex') throw invalid(`"${show(filter.path)}" is not a multi-valued complex attribute of ${kind}.`);
      const container = containerOf(resource, found.urn, kind);
      return asArray(container[found.def.name]).some((el) => matchesElement(found.def, el as Obj, filter.filter));
    }
    case 'pr': return resolve(kind, resource, filter.path).values.some(present);
    default: {
      const { values, def } = resolve(kind, resource, filter.path);
      const name = show(filter.path);
      if (filter.value === null) return filter.op === 'eq' ? !values.some(present) : filter.op === 'ne' ? values.some(present) : false;
      if (values.length === 0) return compareOne(def, undefined, filter.op, filter.value, name);
      return values.some((v) => compareOne(def, v, filter.op, filter.value as Literal, name));
    }
  }
}

/** A value of `def`'s type, to try a comparison's types without a row. */
const sampleOf = (def: AttrDef): unknown => (def.type === 'boolean' ? true : '');

/** Checks every path and comparison of a filter before any row is read (also those no row would reach). */
export function checkFilter(kind: ResourceKind, filter: Filter, element: AttrDef | null = null): void {
  switch (filter.op) {
    case 'and': case 'or': checkFilter(kind, filter.left, element); checkFilter(kind, filter.right, element); return;
    case 'not': checkFilter(kind, filter.filter, element); return;
    case 'valuePath': {
      if (element) throw invalid('A value filter cannot nest another.');
      const found = findAttr(kind, filter.path.uri, filter.path.attr, null);
      if (!found || !found.def.multiValued || found.def.type !== 'complex') throw invalid(`"${show(filter.path)}" is not a multi-valued complex attribute of ${kind}.`);
      checkFilter(kind, filter.filter, found.def);
      return;
    }
    default: {
      if (element) {
        matchesElement(element, Object.fromEntries((element.subAttributes ?? []).map((a) => [a.name, sampleOf(a)])), filter);
        return;
      }
      const { def } = resolve(kind, {}, filter.path);
      if (filter.op !== 'pr' && filter.value !== null) compareOne(def, sampleOf(def), filter.op, filter.value, show(filter.path));
    }
  }
}
