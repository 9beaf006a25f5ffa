import type { TSchema } from '@sinclair/typebox';
import { PLATFORMS } from '@postbus/contracts';
import { PROPERTY_EXAMPLES, PROPERTY_NOTES } from './property-notes';

/**
 * A JSON Schema as listed: the keywords this file reads or writes, typed; every other keyword
 * (format, pattern, maxLength …) is carried through as it came.
 */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  [keyword: string]: unknown;
}

/** Tools whose post payload must name its platforms (the others take a partial payload). */
const PLATFORMS_REQUIRED = new Set(['svc_schedule_post', 'svc_draft_post']);

const onlyKeys = (o: unknown, keys: string[]) =>
  !!o && typeof o === 'object' && Object.keys(o).every((k) => keys.includes(k));

/**
 * The same choice in fewer bytes, in the form most clients render: `anyOf` of string constants
 * (and null) → one `enum`; `anyOf` of bare types → a list of types (`["string", "null"]`).
 */
function foldChoices(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length === 0) return schema;
  const { anyOf: _options, ...rest } = schema;
  const isNull = (o: JsonSchema) => onlyKeys(o, ['type']) && o.type === 'null';
  const constants = options.filter((o) => !isNull(o));
  if (constants.length > 0 && constants.every((o) => onlyKeys(o, ['const', 'type']) && typeof o.const === 'string')) {
    const nullable = constants.length < options.length;
    return {
      ...rest,
      type: nullable ? ['string', 'null'] : 'string',
      enum: [...constants.map((o) => o.const), ...(nullable ? [null] : [])],
    };
  }
  if (options.every((o): o is JsonSchema & { type: string } => onlyKeys(o, ['type']) && typeof o.type === 'string'))
    return { ...rest, type: options.map((o) => o.type) };
  return schema;
}

/** A plain JSON copy (TypeBox's symbol keys dropped), constants folded into enums, everywhere below. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (!value || typeof value !== 'object') return value;
  return plainSchema(value);
}

/** An object of a schema (the schema itself or any object within it) as {@link plain} copies it. */
function plainSchema(schema: object): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    // A schema's own `title` (a TypeBox type name) tells a model nothing its description does not.
    if (k === 'title' && typeof v === 'string') continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, plain(s)]))
        : plain(v);
  }
  return foldChoices(out);
}

/** Visits every property schema with its path (`a.b`, `list[].c`), children after their parent. */
function eachProperty(schema: JsonSchema, visit: (path: string, property: JsonSchema) => void, prefix = ''): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    visit(path, property);
    eachProperty(property, visit, path);
    for (const branch of property.anyOf ?? []) eachProperty(branch, visit, path);
    if (property.items) eachProperty(property.items, visit, `${path}[]`);
  }
}

/** Long descriptions already listed, with the tool and argument that carry them in full. */
export type DescriptionsSeen = Map<string, { tool: string; path: string }>;

/** What the list has already spelled out, so that later entries refer to it instead of repeating it. */
export interface Listed {
  descriptions: DescriptionsSeen;
  /** Nested schemas (the post payload's platformMeta, firstComment) by their JSON, with where they are spelled out. */
  subtrees: Map<string, { tool: string; path: string }>;
  /** Result shapes (a post, a schedule, a series) by their JSON, with the first tool answering one. */
  results: Map<string, string>;
}

export const newListed = (): Listed => ({ descriptions: new Map(), subtrees: new Map(), results: new Map() });

/** A schema's JSON with its keys sorted: the same schema whatever order its keywords were written in. */
function canonical(schema: unknown): string {
  return JSON.stringify(schema, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** Where something was spelled out, as a reader of `path` in `toolName` finds it. */
function whereSaid(earlier: { tool: string; path: string }, toolName: string, path: string): string {
  if (earlier.tool === toolName) return earlier.path;
  if (!earlier.path) return earlier.tool;
  return earlier.path === path ? `${earlier.path} in ${earlier.tool}` : `${earlier.path} of ${earlier.tool}`;
}

/** A nested schema smaller than this is cheaper to repeat than to refer to. */
const SUBTREE_MIN_BYTES = 160;

/** Arguments every tool taking them spells out in full: the retry rule matters wherever a model may retry a create. */
const SAID_EVERYWHERE = new Set(['idempotencyKey']);

/** A closed choice (an enum, or a list of one) is always spelled out: it is what a model must see to choose. */
const isChoice = (schema: JsonSchema) => Array.isArray(schema.enum) || Array.isArray(schema.items?.enum);

/**
 * Replaces every property schema spelled out earlier in the list (or earlier in this schema) by
 * its type and a sentence naming where it is: the same rules, said once. Each tool still lists
 * every argument it takes by name.
 */
function referToRepeats(schema: JsonSchema, toolName: string, subtrees: Listed['subtrees'], prefix = ''): void {
  const properties = schema.properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (!prefix && SAID_EVERYWHERE.has(name)) continue;
    const key = canonical(property);
    const earlier = key.length >= SUBTREE_MIN_BYTES && !isChoice(property) ? subtrees.get(key) : undefined;
    if (earlier) {
      properties[name] = { ...typeOnly(property), description: `As ${whereSaid(earlier, toolName, path)}.` };
      continue;
    }
    if (key.length >= SUBTREE_MIN_BYTES) subtrees.set(key, { tool: toolName, path });
    referToRepeats(property, toolName, subtrees, path);
    for (const branch of property.anyOf ?? []) referToRepeats(branch, toolName, subtrees, path);
    if (property.items) referItems(property, toolName, subtrees, `${path}[]`);
  }
}

/** An array's items: referred to as a whole when another tool spelled them out (a schedule's slots, a template's rules). */
function referItems(array: JsonSchema, toolName: string, subtrees: Listed['subtrees'], path: string): void {
  const items = array.items;
  if (!items) return;
  const key = canonical(items);
  const earlier = key.length >= SUBTREE_MIN_BYTES && !isChoice(items) ? subtrees.get(key) : undefined;
  if (earlier && earlier.tool !== toolName) {
    array.items = { ...typeOnly(items), description: `Each as ${whereSaid(earlier, toolName, path)}.` };
    return;
  }
  if (!earlier && key.length >= SUBTREE_MIN_BYTES) subtrees.set(key, { tool: toolName, path });
  referToRepeats(items, toolName, subtrees, path);
}

/**
 * The tool's arguments as listed: every property described (the contract's words, else
 * PROPERTY_NOTES, with an example from PROPERTY_EXAMPLES where the words show none); a schema or
 * description already spelled out in this schema or earlier in the list (per-platform blocks
 * repeat the top-level ones, post tools the post payload's) referred to; the platforms a closed
 * choice, required where a post is created.
 */
export function presentInput(toolName: string, input: TSchema, listed: Listed = newListed()): JsonSchema {
  const schema = plainSchema(input);
  eachProperty(schema, (path, property) => {
    const name = path.split('.').pop()!;
    property.description ??= PROPERTY_NOTES[path] ?? PROPERTY_NOTES[name];
    const example = PROPERTY_EXAMPLES[path] ?? PROPERTY_EXAMPLES[name];
    if (example && typeof property.description === 'string' && !/Example|e\.g\./.test(property.description))
      property.description = `${property.description.replace(/\.?$/, '.')} Example: ${example}.`;
  });
  const platforms = schema.properties?.platforms;
  if (platforms?.type === 'array') {
    platforms.items = { type: 'string', enum: [...PLATFORMS] };
    platforms.minItems = 1;
    platforms.description =
      'Where to post: one or more platforms, each with a connected profile. Example: ["instagram", "threads"].';
    if (PLATFORMS_REQUIRED.has(toolName)) schema.required = [...new Set([...(schema.required ?? []), 'platforms'])];
  }
  referToRepeats(schema, toolName, listed.subtrees);
  sayOnce(schema, toolName, listed.descriptions);
  return schema;
}

/** A long description met again is replaced by where it was first said. */
function sayOnce(schema: JsonSchema, toolName: string, seen: DescriptionsSeen): void {
  eachProperty(schema, (path, property) => {
    const text = property.description;
    if (typeof text !== 'string' || text.length < 30 || SAID_EVERYWHERE.has(path)) return;
    const earlier = seen.get(text);
    if (!earlier) seen.set(text, { tool: toolName, path });
    else if (earlier.tool !== toolName || earlier.path !== path)
      property.description = `As ${whereSaid(earlier, toolName, path)}.`;
  });
}

/** A schema reduced to its type (an array keeps its items' type, a choice its values): what a reference or a result field keeps. */
function typeOnly(schema: JsonSchema): JsonSchema {
  if (schema.items) return { type: schema.type, items: schema.items.type ? { type: schema.items.type } : {} };
  if (schema.type) return { type: schema.type, ...(schema.enum && { enum: schema.enum }) };
  if (Array.isArray(schema.anyOf)) return foldChoices({ anyOf: schema.anyOf.map(typeOnly) });
  return {};
}

/**
 * A result's shape as listed: its fields, which are always there, and each field's type (and
 * choices). The nesting, limits and prose are the REST response's (docs/api.md); a model reads the
 * fields from the result itself, and a client checking structuredContent checks the top level. A
 * shape an earlier tool answers already (a post, a schedule) is named, not repeated.
 */
export function presentOutput(toolName: string, output: TSchema, listed: Listed = newListed()): JsonSchema {
  const schema = plainSchema(output);
  const fields = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, field]) => [name, typeOnly(field)]),
  );
  const shape = { type: 'object', ...(schema.required && { required: schema.required }), properties: fields };
  // A result shaped like an earlier tool's is said once: the later tool refers to it.
  const key = canonical(shape);
  const earlier = listed.results.get(key);
  if (earlier) return { type: 'object', description: `As the result of ${earlier}.` };
  listed.results.set(key, toolName);
  return shape;
}
