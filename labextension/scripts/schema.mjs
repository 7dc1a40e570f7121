/**
 * Generates labextension/src/schema.ts from compiler/schema/compile_report.v1.schema.json, and
 * labextension/src/diffSchema.ts from compiler/schema/compile_diff.v1.schema.json (what `dynamo-explorer diff` writes).
 *
 *   node labextension/scripts/schema.mjs           rewrite the TypeScript types
 *   node labextension/scripts/schema.mjs --check   regenerate in memory; exit 1 when the file differs
 *
 * The schema is the contract (hand-edited by the engine's owners); the TypeScript is never edited by hand.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A banner naming what the file is generated from. */
const banner = (what, source) => `/* eslint-disable */
/**
 * Types for ${what}, generated, do not edit.
 *
 * Source: ${source}
 * Regenerate with \`npm run build:schema\`; CI runs \`npm run check:schema\`, which fails on any drift.
 */`;

/** The panes of `x-dynamo-explorer.panes`, checked: unique `data-pane` names, a title and what each shows. */
function panes(meta) {
  const list = meta.panes;
  if (!Array.isArray(list) || list.length === 0) {
    throw new Error('x-dynamo-explorer.panes must list the panes of the report view: fix the schema file');
  }
  const seen = new Set();
  for (const pane of list) {
    const ok =
      typeof pane.name === 'string' &&
      /^[a-z][a-z0-9-]*$/.test(pane.name) &&
      !seen.has(pane.name) &&
      typeof pane.title === 'string' &&
      pane.title.length > 0 &&
      Array.isArray(pane.shows) &&
      pane.shows.length > 0 &&
      pane.shows.every(s => typeof s === 'string');
    if (!ok) {
      throw new Error(`x-dynamo-explorer.panes: bad or repeated entry ${JSON.stringify(pane)}: fix the schema file`);
    }
    seen.add(pane.name);
  }
  return list;
}

/** The constants both languages read from the schema's `x-dynamo-explorer` (never typed twice). */
function constants(schema) {
  const meta = schema['x-dynamo-explorer'];
  const majors = schema.definitions.SchemaVersion.properties.major.enum;
  if (!majors.includes(meta.version.major) || !meta.mime_type.includes(`.v${meta.version.major}+json`)) {
    throw new Error('x-dynamo-explorer disagrees with SchemaVersion.major or the MIME type: fix the schema file');
  }
  const list = panes(meta);
  const titles = list.map(p => `  ${JSON.stringify(p.name)}: ${JSON.stringify(p.title)}`).join(',\n');
  return `
/** The schema version this renderer was generated from (x-dynamo-explorer.version). */
export const SCHEMA_VERSION = { major: ${meta.version.major}, minor: ${meta.version.minor} } as const;

/** The MIME type of a report bundle; the major version is part of the name. */
export const MIME_TYPE = ${JSON.stringify(meta.mime_type)};

/** The MIME type, beside MIME_TYPE in one output, of what its report holds only in part (x-dynamo-explorer.parts_mime_type). */
export const PARTS_MIME_TYPE = ${JSON.stringify(meta.parts_mime_type)};

/** The schema majors this renderer reads (SchemaVersion.major's enum). */
export const SUPPORTED_MAJORS: readonly number[] = ${JSON.stringify(majors)};

/** The panes of the report view, in display order: their \`data-pane\` names (x-dynamo-explorer.panes). */
export const PANES = [${list.map(p => JSON.stringify(p.name)).join(', ')}] as const;

/** The name of a pane (its \`data-pane\` attribute). */
export type PaneName = (typeof PANES)[number];

/** The title each pane shows (x-dynamo-explorer.panes[].title). */
export const PANE_TITLES: Readonly<Record<PaneName, string>> = {
${titles}
};
`;
}

/** The constants of the diff's schema (x-dynamo-explorer): its version and MIME type. */
function diffConstants(schema) {
  const meta = schema['x-dynamo-explorer'];
  const major = schema.properties.diff_version.properties.major.const;
  if (meta.version.major !== major || !meta.mime_type.includes(`.v${major}+json`)) {
    throw new Error('x-dynamo-explorer disagrees with diff_version.major or the MIME type: fix the diff schema file');
  }
  return `
/** The diff schema version this renderer was generated from (x-dynamo-explorer.version). */
export const DIFF_VERSION = { major: ${meta.version.major}, minor: ${meta.version.minor} } as const;

/** The MIME type of a diff of two runs; the major version is part of the name. */
export const DIFF_MIME_TYPE = ${JSON.stringify(meta.mime_type)};
`;
}

/** The files generated: each schema, its root type's name, the TypeScript file and its constants. */
const TARGETS = [
  {
    schema: 'compiler/schema/compile_report.v1.schema.json',
    target: 'labextension/src/schema.ts',
    name: 'CompileReport',
    what: 'the compile report',
    constants
  },
  {
    schema: 'compiler/schema/compile_diff.v1.schema.json',
    target: 'labextension/src/diffSchema.ts',
    name: 'CompileDiff',
    what: 'the diff of two runs',
    constants: diffConstants
  }
];

async function generate(entry) {
  const path = resolve(ROOT, entry.schema);
  const schema = JSON.parse(await readFile(path, 'utf8'));
  const types = await compile(schema, entry.name, {
    bannerComment: banner(entry.what, entry.schema),
    additionalProperties: false,
    unreachableDefinitions: true,
    unknownAny: true,
    cwd: dirname(path),
    style: { singleQuote: true, trailingComma: 'none', arrowParens: 'avoid', printWidth: 100 }
  });
  return types + entry.constants(schema);
}

for (const entry of TARGETS) {
  const generated = await generate(entry);
  const target = resolve(ROOT, entry.target);
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = await readFile(target, 'utf8');
    } catch {
      current = '';
    }
    if (current !== generated) {
      console.error(
        `${entry.target} is out of date with ${entry.schema}: run \`npm run build:schema\` and commit the result.`
      );
      process.exit(1);
    }
    console.log(`${entry.target} matches the schema.`);
  } else {
    await writeFile(target, generated);
    console.log(`wrote ${entry.target}`);
  }
}
