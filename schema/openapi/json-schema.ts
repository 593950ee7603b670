import { z } from 'zod';

/** A JSON Schema (draft 2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Schemas lifted out of the operations into `components/schemas`: each schema's own `$defs`
 * (zod puts recursive and `.meta({id})` schemas there) must move, because inside an OpenAPI
 * document a `#/$defs/…` reference resolves against the document's root, not the schema.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly registry = z.registry<{ id: string }>();
  private readonly sharedIds = new Set<string>();

  /**
   * `named`: schemas many calls share (the mirrored entities), each written once as a component
   * under its name and referenced wherever it occurs, instead of inlined in every operation.
   */
  constructor(named: Readonly<Record<string, z.ZodType>> = {}) {
    for (const [id, schema] of Object.entries(named)) {
      this.registry.add(schema, { id: componentName(id) });
      this.sharedIds.add(componentName(id));
    }
  }

  /**
   * The wire form of a zod schema. Always the *input* side: a request is what the server parses
   * and an answer is what the client parses, so the JSON on the wire is what the schema accepts
   * (transforms, defaults and pipes are described by what they take). What JSON Schema cannot
   * say (z.custom, Uint8Array, dates, functions) becomes `{}` with a note, never a crash.
   */
  convert(schema: z.ZodType, name: string): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
      metadata: this.registry,
      cycles: 'ref',
      reused: 'inline',
      override: (ctx) => {
        const type = (ctx.zodSchema._zod.def as { type: string }).type;
        if (type === 'custom' || type === 'date' || type === 'bigint') {
          ctx.jsonSchema.description ??= type === 'custom' ? 'A value the server checks by code (any JSON value here).' : `A ${type} value.`;
        }
      },
    }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const renames = new Map<string, string>();
    const nameOf = (key: string) => (this.sharedIds.has(key) ? key : componentName(`${name}.${key}`));
    for (const key of Object.keys(defs)) renames.set(`#/$defs/${key}`, `#/components/schemas/${nameOf(key)}`);
    // `#` alone is zod's reference to the root of a recursive schema: the root becomes a component.
    const selfRef = JSON.stringify(json).includes('"$ref":"#"') || JSON.stringify(defs).includes('"$ref":"#"');
    if (selfRef) renames.set('#', `#/components/schemas/${componentName(name)}`);
    for (const [key, def] of Object.entries(defs)) this.schemas[nameOf(key)] = rewriteRefs(def, renames) as JsonSchema;
    const body = rewriteRefs(json, renames) as JsonSchema;
    if (!selfRef) return body;
    this.schemas[componentName(name)] = body;
    return { $ref: `#/components/schemas/${componentName(name)}` };
  }
}

/** OpenAPI component names allow only `[A-Za-z0-9._-]`. */
export const componentName = (raw: string) => raw.replace(/[^A-Za-z0-9._-]/g, '_');

function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renames));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') {
      out[k] = renames.get(v) ?? v;
    } else {
      out[k] = rewriteRefs(v, renames);
    }
  }
  return out;
}

/** The object properties of a parameters schema (params or query), with which are required. */
export function objectProperties(json: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const visit = (s: JsonSchema) => {
    if (s.properties) Object.assign(properties, s.properties as Record<string, JsonSchema>);
    for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
    // A refined or intersected query (allOf) or a union of shapes (anyOf/oneOf): every
    // property any branch names can be sent; only those all must send stay required.
    for (const branch of (s.allOf as JsonSchema[] | undefined) ?? []) visit(branch);
    const alternatives = ((s.anyOf ?? s.oneOf) as JsonSchema[] | undefined) ?? [];
    for (const branch of alternatives) {
      const inner = objectProperties(branch);
      for (const [k, v] of Object.entries(inner.properties)) properties[k] ??= v;
    }
  };
  visit(json);
  return { properties, required };
}
