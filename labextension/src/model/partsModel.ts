/**
 * What a report holds only in part (schema `parts_cut`, minor 9: a frame's guards beyond the first 5,000, a guard
 * tree beyond 1 MB) and loading the whole of one from the kernel that ran the cell (kernel_ext/parts.py), through
 * the view's host (reportHub.ts `partLoader`): the widget's comm, or a comm our JupyterLab renderer opens. The same
 * way loads another rank's whole report of a multi-rank trace a kernel opened (`loadKey`, `RankSummary.part`).
 * The `--html` page holds the whole of what its report holds only in part, compressed (kernel_ext/export.py: a run's
 * parts, a trace's trees as its log holds them): `embedParts` keeps them and `embeddedLoader` answers as a kernel would.
 */
import { gunzipBase64, isEncoded } from './encoding';
import { guardRowsFromTree } from './guardTree';
import type { CompileReport, Frame, Guard, PartCut } from '../schema';

/** Asks the kernel for one part of a drawn report by its key (`IReportHost.loadPart` bound to the view's node). */
export type PartLoader = (key: string) => Promise<unknown>;

/** The part of `frame` the report holds only in part, or undefined (a report older than minor 9 has none). */
export function partCut(report: CompileReport, frame: Frame, part: PartCut['part']): PartCut | undefined {
  return (report.parts_cut ?? []).find(c => c.part === part && c.compile_id === frame.compile_id);
}

/**
 * The parts a page holds (`<script id="dynamo-explorer-parts">`: `{keys: {key: blob index}, blobs: [value, stored as
 * a kernel sends it]}`), by key; a page may hold one blob for two keys (a guard tree and its rows).
 */
interface IEmbeddedParts {
  keys: Record<string, number>;
  blobs: unknown[];
}

let embedded: IEmbeddedParts | null = null;

/** Keep the parts the page holds (standalone.ts), for `embeddedLoader`; null: none. */
export function embedParts(parts: unknown): void {
  const given = parts as IEmbeddedParts | null;
  embedded = given && typeof given.keys === 'object' && Array.isArray(given.blobs) ? given : null;
}

/** A loader that answers from the parts the page holds, or null when it holds none. */
export function embeddedLoader(): PartLoader | null {
  const held = embedded;
  if (!held) {
    return null;
  }
  return async key => {
    const at = held.keys[key];
    const blob = at === undefined ? undefined : held.blobs[at];
    if (blob === undefined) {
      return { key, part: null, error: 'this page does not hold it' };
    }
    const tabbed = (blob as { tabbed?: unknown } | null)?.tabbed;
    if (typeof tabbed === 'string') {
      // a trace's tree as its log holds it (compiler/trace/panes.py tabbed_tree): each line after a tab
      const lines = await gunzipBase64(tabbed);
      return { key, part: lines.slice(1).replaceAll('\n\t', '\n'), error: null };
    }
    return { key, part: blob, error: null };
  };
}

/** Does the page hold the part `key`? */
export function pageHolds(key: string): boolean {
  return embedded !== null && embedded.keys[key] !== undefined;
}

/** The kernel's answer to a request for a part. */
interface IPartAnswer {
  part?: unknown;
  error?: string | null;
}

/**
 * What the kernel keeps under `key` (the whole of a part: `PartCut.key`; a rank's whole report: `RankSummary.part`),
 * the answer decoded (a big one comes gzip + base64); throws the kernel's error.
 */
export async function loadKey(loader: PartLoader, key: string): Promise<unknown> {
  const answer = (await loader(key)) as IPartAnswer | null;
  if (!answer || answer.error || answer.part === undefined || answer.part === null) {
    throw new Error(answer?.error || 'the kernel did not send it');
  }
  const part = answer.part;
  if (typeof part === 'object' && isEncoded(part as object)) {
    return JSON.parse(await gunzipBase64((part as { data: string }).data));
  }
  return part;
}

/**
 * Put the whole part into the report in place of what it held (the frame's guards or guard tree), and drop it
 * from `parts_cut`. Throws when the kernel sent something else than the part's kind.
 */
export function applyWhole(report: CompileReport, frame: Frame, cut: PartCut, whole: unknown): void {
  if (cut.part === 'guards') {
    if (typeof whole === 'string') {
      frame.guards = guardRowsFromTree(whole, frame.code.filename); // a trace's tree: its rows derived here
    } else if (!Array.isArray(whole)) {
      throw new Error('the kernel sent no guard rows');
    } else {
      frame.guards = whole as Guard[];
    }
  } else {
    if (typeof whole !== 'string') {
      throw new Error('the kernel sent no guard tree');
    }
    frame.guard_tree = whole;
  }
  report.parts_cut = (report.parts_cut ?? []).filter(c => c !== cut);
}
