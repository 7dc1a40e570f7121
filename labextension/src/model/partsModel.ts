/**
 * What a report holds only in part (schema `parts_cut`, minor 9: a frame's guards beyond the first 5,000, a guard
 * tree beyond 1 MB; minor 25: a bytecode listing beyond 50,000 instructions, a graph's code beyond 1 MB) and loading
 * the whole of one from the kernel that ran the cell (kernel_ext/parts.py), through
 * the view's host (reportHub.ts `partLoader`): the widget's comm, or a comm our JupyterLab renderer opens. The same
 * way loads another rank's whole report of a multi-rank trace a kernel opened (`loadKey`, `RankSummary.part`).
 * The `--html` page holds the whole of what its report holds only in part, compressed (kernel_ext/export.py: a run's
 * parts, a trace's trees as its log holds them), and so does a `%%dynamo` output beside its report (PARTS_MIME_TYPE:
 * a saved notebook): `embedParts` / `holdParts` keep them and `embeddedLoader` answers as a kernel would.
 */
import { gunzipBase64, isEncoded } from './encoding';
import { guardRowsFromTree } from './guardTree';
import type { CompileReport, Frame, Guard, Instruction, PartCut } from '../schema';

/** Asks the kernel for one part of a drawn report by its key (`IReportHost.loadPart` bound to the view's node). */
export type PartLoader = (key: string) => Promise<unknown>;

/**
 * The part of `frame` the report holds only in part (of its graph `graph` for `graph_code`, minor 25), or undefined
 * (a report older than minor 9 has none).
 */
export function partCut(
  report: CompileReport,
  frame: Frame,
  part: PartCut['part'],
  graph?: number
): PartCut | undefined {
  return (report.parts_cut ?? []).find(
    c => c.part === part && c.compile_id === frame.compile_id && (graph === undefined || c.graph === graph)
  );
}

/**
 * Parts an output holds beside its report (`{keys: {key: blob index}, blobs: [value, stored as a kernel sends it]}`):
 * the `--html` page's `<script id="dynamo-explorer-parts">`, a `%%dynamo` output's PARTS_MIME_TYPE entry (a saved
 * notebook); one blob may serve two keys (a guard tree and its rows).
 */
interface IHeldParts {
  keys: Record<string, number>;
  blobs: unknown[];
}

/** Where held parts are: the page, or the notebook's output. */
export type HeldIn = 'page' | 'notebook';

/** Every part held by the page or the notebook's outputs drawn now, by key (keys are unique to a run). */
const held = new Map<string, { blob: unknown; where: HeldIn }>();

/**
 * Hold the parts `parts` (an IHeldParts; anything else holds nothing) for `embeddedLoader`; the returned function
 * lets them go (a notebook output disposed).
 */
export function holdParts(parts: unknown, where: HeldIn): () => void {
  const given = parts as IHeldParts | null;
  if (!given || typeof given.keys !== 'object' || !Array.isArray(given.blobs)) {
    return () => undefined;
  }
  const mine: string[] = [];
  for (const [key, at] of Object.entries(given.keys)) {
    if (typeof at === 'number' && given.blobs[at] !== undefined) {
      held.set(key, { blob: given.blobs[at], where });
      mine.push(key);
    }
  }
  return () => mine.forEach(key => held.get(key)?.where === where && held.delete(key));
}

/** Keep the parts the page holds (standalone.ts) in place of any it held before; null: none. */
export function embedParts(parts: unknown): void {
  for (const [key, value] of Array.from(held)) {
    if (value.where === 'page') {
      held.delete(key);
    }
  }
  holdParts(parts, 'page');
}

/** A loader that answers from the parts held here, or null when none is held. */
export function embeddedLoader(): PartLoader | null {
  if (held.size === 0) {
    return null;
  }
  return async key => {
    const blob = held.get(key)?.blob;
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

/** Where the part `key` is held (the page, the notebook), or null: ask the kernel. */
export function heldIn(key: string): HeldIn | null {
  return held.get(key)?.where ?? null;
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
 * Put the whole part into the report in place of what it held (the frame's guards, guard tree or bytecode listing,
 * a graph's code), and drop it from `parts_cut`. Throws when the kernel sent something else than the part's kind.
 */
export function applyWhole(report: CompileReport, frame: Frame, cut: PartCut, whole: unknown): void {
  if (cut.part === 'original_bytecode' || cut.part === 'modified_bytecode') {
    if (!Array.isArray(whole)) {
      throw new Error('the kernel sent no instructions');
    }
    frame[cut.part] = whole as Instruction[];
  } else if (cut.part === 'graph_code') {
    const graph = report.graphs.find(g => g.id === cut.graph);
    if (typeof whole !== 'string' || !graph) {
      throw new Error('the kernel sent no graph code');
    }
    graph.code = whole;
  } else if (cut.part === 'guards') {
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
