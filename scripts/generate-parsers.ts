// Generates each response schema's parser at build time with zod's own generator (`compileFn`), and writes them
// as source: src/management/parsers.generated.ts and src/catalog/parsers.generated.ts. The SDK installs them with
// zod's `withParser`, so no shipped entry carries zod's runtime code generator, and runtimes without
// `new Function` (Cloudflare Workers) get the fast path too.
//
//   node --import tsx scripts/generate-parsers.ts           writes the files (the build runs this first)
//   node --import tsx scripts/generate-parsers.ts --check   exits 1 if a file is not what zod generates now
//
// zod's generated code refers to constants: regexes, key sets, the schema's own functions (a transform, a refine),
// helpers of zod's compiler (closures around those functions) and nested generated functions. Each is written as
// source: a literal, a path to where it lives in the schema (`at(Schema, 'in.shape.items')`), or a helper of the
// generated file's own that does what zod's closure does. A constant of any other kind stops the generator with
// its name, so a zod upgrade that generates something new is reviewed here, never shipped unread; the parity tests
// (test/core/parsers.test.ts) prove each parser agrees with zod's interpreter. zod's immediately called arrows are
// written as labelled blocks (scripts/lib/flatten-iifes.ts): the same steps without a closure and a call per value.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileFn, INVALID, util } from 'zod/v4/core';
import * as catalog from '../src/catalog/schemas.js';
import * as management from '../src/management/schemas.js';
import { flattenIifes } from './lib/flatten-iifes.js';

/** The response schemas each API parses, by the file their parsers go to. */
const ROOMS = [
  {
    file: 'src/management/parsers.generated.ts',
    module: management as Record<string, unknown>,
    schemas: [
      'PixelResponseSchema',
      'PixelPageSchema',
      'DomainResponseSchema',
      'DomainPageSchema',
      'DeleteReceiptSchema',
    ],
  },
  {
    file: 'src/catalog/parsers.generated.ts',
    module: catalog as Record<string, unknown>,
    schemas: ['AccountEnvelopeSchema', 'ItemsEnvelopeSchema', 'ItemEnvelopeSchema', 'PurchaseEnvelopeSchema'],
  },
] as const;

type Path = readonly (string | number)[];
interface Place {
  root: string;
  path: Path;
}
interface Generated {
  names: readonly string[];
  body: string;
  values: readonly unknown[];
}
type Node = Record<string | number, unknown> & { _zod?: { def: Record<string, unknown>; check?: unknown } };

/** The helpers a generated file may define, doing what zod's compiler closures do (zod 4.6's compile.js). */
const HELPERS: { name: string; uses: string[]; source: string }[] = [
  {
    name: 'pushIssue',
    uses: [],
    source: `/** The \`addIssue\` of the payload a check or transform gets (zod's \`pushIssue\`). */
function pushIssue(issue) {
  this.issues.push(issue);
}`,
  },
  {
    name: 'throwAsync',
    uses: [],
    source: `/** A check or refine that returned a promise: zod's interpreter throws for it. */
function throwAsync() {
  throw new $ZodAsyncError();
}`,
  },
  {
    name: 'checked',
    uses: ['pushIssue', 'throwAsync'],
    source: `/** A custom check (\`z.refine\`, \`.check(fn)\`) run on a payload of its own: its value, or INVALID if it added an issue. */
const checked = (checkFn) => (value) => {
  const fakePayload = { value, issues: [], addIssue: pushIssue };
  const result = checkFn(fakePayload);
  if (result instanceof Promise) throwAsync();
  return fakePayload.issues.length === 0 ? fakePayload.value : INVALID;
};`,
  },
  {
    name: 'transformed',
    uses: ['pushIssue'],
    source: `/**
 * A transform run on a payload of its own: its result, or INVALID if it added an issue or returned a promise. One
 * that takes the value alone cannot add an issue: it is called without a payload (none to allocate per value).
 */
const transformed = (transformFn) =>
  transformFn.length < 2
    ? (value) => {
        const result = transformFn(value);
        return result instanceof Promise ? INVALID : result;
      }
    : (value) => {
        const fakePayload = { value, issues: [], addIssue: pushIssue };
        const result = transformFn(value, fakePayload);
        if (result instanceof Promise) return INVALID;
        return fakePayload.issues.length === 0 ? result : INVALID;
      };`,
  },
  {
    name: 'defaulted',
    uses: [],
    source: `/** A default's value, read when it is needed (zod's \`defaultGetter\`). */
const defaulted = (schema) => () => schema._zod.def.defaultValue;`,
  },
  {
    name: 'at',
    uses: [],
    source: `/** A node of a schema: \`path\` steps through each schema's definition; \`@check\` is a check's own function. */
const at = (node, path) => {
  for (const key of path.split('.')) node = key === '@check' ? node._zod.check : node._zod ? node._zod.def[key] : node[key];
  return node;
};`,
  },
];

/** The helpers `code` calls, and those they call, in the order they are defined. */
function helpersOf(code: string): typeof HELPERS {
  // A helper is called (`at(…)`, `checked(…)`) or handed over as a constant (`throwAsync`).
  const named = (h: (typeof HELPERS)[number]) => new RegExp(`\\b${h.name}${h.name === 'at' ? '\\(' : '\\b'}`);
  const wanted = new Set(HELPERS.filter((h) => named(h).test(code)).map((h) => h.name));
  for (const helper of [...HELPERS].reverse())
    if (wanted.has(helper.name)) for (const use of helper.uses) wanted.add(use);
  return HELPERS.filter((h) => wanted.has(h.name));
}

/**
 * zod's compiler closures and internal functions, by their source with comments and spaces taken out: each is
 * written as the preamble's helper, given the function or schema it closes over (found by running it once).
 */
const CLOSURES: Record<string, { helper: string; binds: 'spy' | 'default' | 'none' }> = {
  [fingerprint(`(value) => {
            const fakePayload = { value, issues: [], addIssue: pushIssue };
            const result = checkFn(fakePayload);
            if (result instanceof Promise)
                throwAsync();
            return fakePayload.issues.length === 0 ? fakePayload.value : INVALID;
        }`)]: { helper: 'checked', binds: 'spy' },
  [fingerprint(`(value) => {
            const fakePayload = { value, issues: [], addIssue: pushIssue };
            const result = transformFn(value, fakePayload);
            if (result instanceof Promise)
                return INVALID;
            return fakePayload.issues.length === 0 ? result : INVALID;
        }`)]: { helper: 'transformed', binds: 'spy' },
  [fingerprint('() => schema._zod.def.defaultValue')]: { helper: 'defaulted', binds: 'default' },
  [fingerprint('function throwAsync() { throw new $ZodAsyncError(); }')]: {
    helper: 'throwAsync',
    binds: 'none',
  },
};

function fingerprint(source: string): string {
  return source
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, '')
    .replace(/;}/g, '}');
}

/** Each schema's parser as zod generates it now, written as the source of every generated file. */
export function generateParsers(): Record<string, string> {
  // Every function zod's compiler builds with `new Function`, with the names and values of its constants.
  const generated = new Map<unknown, Generated>();
  const RealFunction = globalThis.Function;
  (globalThis as { Function: unknown }).Function = function capture(...args: string[]) {
    const factory = RealFunction(...args) as (...values: unknown[]) => unknown;
    return (...values: unknown[]) => {
      const fn = factory(...values);
      generated.set(fn, { names: args.slice(0, -1), body: args.at(-1) as string, values });
      return fn;
    };
  };
  const files: Record<string, string> = {};
  try {
    for (const room of ROOMS) {
      // One room at a time: a node two rooms share (the `Number` of a transform) is found where this room holds it.
      const spying = new Spies();
      const entries: string[] = [];
      try {
        for (const name of room.schemas) spying.walk(room.module[name], name);
        for (const name of room.schemas) {
          const fn = compileFn(room.module[name] as Parameters<typeof compileFn>[0]);
          entries.push(`  ['${name}', withParser(${name}, ${spying.factory(generated, fn, name)})],`);
        }
      } finally {
        spying.restore();
      }
      const helpers = helpersOf(entries.join('\n'));
      files[room.file] = [
        `// Generated by scripts/generate-parsers.ts with zod ${zodVersion()}'s generator: do not edit (the build rewrites it).`,
        '// Each response schema with its parser installed (`withParser`): the code zod would generate at run time,',
        '// its immediately called arrows written as labelled blocks (scripts/lib/flatten-iifes.ts).',
        '// biome-ignore-all lint: generated code',
        '// biome-ignore-all format: generated code',
        '// @ts-nocheck',
        `import { ${zodImports(entries.join('\n'), helpers).join(', ')} } from 'zod/v4/core';`,
        `import { ${[...room.schemas].sort().join(', ')} } from './schemas.js';`,
        '',
        ...helpers.flatMap((helper) => [helper.source, '']),
        '/** Each response schema by its name, with its generated parser installed. */',
        'export const parsers = new Map([',
        ...entries,
        ']);',
        '',
      ].join('\n');
    }
    return files;
  } finally {
    (globalThis as { Function: unknown }).Function = RealFunction;
  }
}

/**
 * Where each function and object of the schemas lives, and spies in place of their functions while zod compiles:
 * a compiler closure, run once, says which function it closes over by calling its spy.
 */
class Spies {
  readonly #places = new Map<unknown, Place>();
  readonly #undo: (() => void)[] = [];
  readonly #called: Place[] = [];

  /** Records every node under `node` (a schema named `root`), and puts spies in place of its functions. */
  walk(node: unknown, root: string, path: Path = []): void {
    if (node === null || (typeof node !== 'object' && typeof node !== 'function')) return;
    if (this.#places.has(node)) return;
    const place = { root, path };
    this.#places.set(node, place);
    if (typeof node === 'function' || node instanceof RegExp || node instanceof Set || node instanceof Map)
      return;
    const value = node as Node;
    if (value._zod !== undefined) {
      const def = value._zod.def;
      if (typeof value._zod.check === 'function') this.#spy(value._zod, 'check', root, [...path, '@check']);
      if (Object.hasOwn(def, 'defaultValue')) this.#watchDefault(def, place);
      for (const key of Object.keys(def)) this.#child(def, key, root, [...path, key]);
      return;
    }
    for (const key of Object.keys(value)) this.#child(value, key, root, [...path, key]);
  }

  #child(parent: Record<string, unknown>, key: string, root: string, path: Path): void {
    const child = parent[key];
    if (typeof child === 'function') this.#spy(parent, key, root, path);
    else this.walk(child, root, path);
  }

  #spy(parent: Record<string, unknown>, key: string, root: string, path: Path): void {
    const real = parent[key] as (...args: unknown[]) => unknown;
    // A function found twice gets a spy in both places; either place holds it.
    const place = { root, path };
    const called = this.#called;
    const spy = function (this: unknown, ...args: unknown[]) {
      called.push(place);
      return real.apply(this, args);
    };
    if (!this.#places.has(real)) this.#places.set(real, place);
    this.#places.set(spy, place);
    parent[key] = spy;
    if (parent[key] !== spy) throw new Error(`generate-parsers: cannot watch ${root}.${path.join('.')}`);
    this.#undo.push(() => {
      parent[key] = real;
    });
  }

  #watchDefault(def: Record<string, unknown>, place: Place): void {
    const real = Object.getOwnPropertyDescriptor(def, 'defaultValue') as PropertyDescriptor;
    const called = this.#called;
    Object.defineProperty(def, 'defaultValue', {
      configurable: true,
      enumerable: real.enumerable ?? true,
      get() {
        called.push(place);
        return real.get ? real.get.call(def) : real.value;
      },
    });
    this.#undo.push(() => Object.defineProperty(def, 'defaultValue', real));
  }

  /** Puts the schemas' own functions back. */
  restore(): void {
    for (const undo of this.#undo.reverse()) undo();
  }

  /** The source of a generated function: its factory, called with each constant written as source. */
  factory(generated: Map<unknown, Generated>, fn: unknown, root: string): string {
    const made = generated.get(fn);
    if (made === undefined) throw new Error(`generate-parsers: zod did not generate a function for ${root}`);
    const args = made.values.map((value, i) => this.#constant(generated, value, `${root} ${made.names[i]}`));
    return `(function (${made.names.join(', ')}) {\n${flattenIifes(made.body)}\n})(${args.join(', ')})`;
  }

  #constant(generated: Map<unknown, Generated>, value: unknown, what: string): string {
    if (value === INVALID) return 'INVALID';
    if (value === undefined) return 'undefined';
    if (value === null || typeof value === 'string' || typeof value === 'boolean')
      return JSON.stringify(value);
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
    if (value instanceof Set && [...value].every(isLiteral)) return `new Set(${JSON.stringify([...value])})`;
    const place = this.#places.get(value);
    if (place !== undefined) return this.#at(place);
    if (generated.has(value)) return this.factory(generated, value, what);
    if (value === Object.prototype.propertyIsEnumerable) return 'Object.prototype.propertyIsEnumerable';
    const utility = Object.entries(util).find(([, fn]) => fn === value);
    if (utility !== undefined) return `util.${utility[0]}`;
    if (typeof value === 'function') {
      const closure = CLOSURES[fingerprint(String(value))];
      if (closure === undefined)
        throw new Error(`generate-parsers: ${what} is a function zod's generator added`);
      if (closure.binds === 'none') return closure.helper;
      // Run once: the spy of the function it closes over (or the default it reads) says which.
      this.#called.length = 0;
      try {
        (value as (input?: unknown) => unknown)(undefined);
      } catch {
        // The function it closes over may refuse `undefined`: it was called, which is all that is asked.
      }
      const bound = this.#called[0];
      if (bound === undefined)
        throw new Error(`generate-parsers: ${what} closes over nothing found in the schema`);
      return `${closure.helper}(${this.#at(bound)})`;
    }
    throw new Error(
      `generate-parsers: ${what} is a constant of a kind zod's generator added (${typeof value})`,
    );
  }

  #at(place: Place): string {
    return place.path.length === 0 ? place.root : `at(${place.root}, '${place.path.join('.')}')`;
  }
}

/** What a generated file takes from zod: the sentinel and `withParser` always, the rest where its code uses them. */
function zodImports(code: string, helpers: typeof HELPERS): string[] {
  return [
    ...(helpers.some((h) => h.name === 'throwAsync') ? ['$ZodAsyncError'] : []),
    'INVALID',
    ...(/\butil\./.test(code) ? ['util'] : []),
    'withParser',
  ];
}

function isLiteral(value: unknown): boolean {
  return value === null || ['string', 'boolean'].includes(typeof value) || Number.isFinite(value);
}

function zodVersion(): string {
  const pkg = new URL('../node_modules/zod/package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const root = new URL('../', import.meta.url);
  let stale = 0;
  for (const [file, source] of Object.entries(generateParsers())) {
    const target = new URL(file, root);
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // Not there yet.
    }
    if (current === source) continue;
    if (check) {
      console.error(`${file} is not what zod ${zodVersion()} generates: run npm run generate`);
      stale += 1;
    } else {
      writeFileSync(target, source);
      console.log(`wrote ${file}`);
    }
  }
  process.exitCode = stale === 0 ? 0 : 1;
}
