/**
 * Test helpers: load the golden reports the engine writes (tests/goldens/*.report.json) and render one
 * through the real renderer into a jsdom document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { MIME_TYPE, RenderedReport } from '../src/index';
import type { CompileReport } from '../src/schema';

/** Where the goldens live (DYNAMO_EXPLORER_GOLDENS overrides it, for trying other reports). */
export const GOLDENS_DIR = process.env.DYNAMO_EXPLORER_GOLDENS ?? resolve(__dirname, '../../tests/goldens');

/**
 * Every golden report, by case name. Throws when there is none: a test over no goldens must fail.
 */
export function loadGoldens(): Array<[string, CompileReport]> {
  let files: string[] = [];
  try {
    files = readdirSync(GOLDENS_DIR)
      .filter(f => f.endsWith('.report.json'))
      .sort();
  } catch {
    files = [];
  }
  if (files.length === 0) {
    throw new Error(`no golden reports in ${GOLDENS_DIR}: run tests/goldens/regenerate.py`);
  }
  return files.map(f => [
    f.replace(/\.report\.json$/, ''),
    JSON.parse(readFileSync(join(GOLDENS_DIR, f), 'utf8')) as CompileReport
  ]);
}

/** One golden by case name. */
export function golden(name: string): CompileReport {
  const found = loadGoldens().find(([n]) => n === name);
  if (!found) {
    throw new Error(`golden ${name}.report.json not found in ${GOLDENS_DIR}`);
  }
  return structuredClone(found[1]);
}

/** A minimal IMimeModel (what JupyterLab hands a renderer). */
export function mimeModel(data: unknown): IRenderMime.IMimeModel {
  return {
    trusted: false,
    data: { [MIME_TYPE]: data as never },
    metadata: {},
    setData: () => undefined
  };
}

/**
 * Render a payload, attached to the document, and wait until it reports ready.
 */
export async function render(data: unknown): Promise<{ widget: RenderedReport; root: HTMLElement }> {
  const widget = new RenderedReport(MIME_TYPE);
  document.body.appendChild(widget.node);
  await widget.renderModel(mimeModel(data));
  return { widget, root: widget.node };
}

/** The element of a pane. */
export function pane(root: HTMLElement, name: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(`[data-pane="${name}"]`);
  if (!el) {
    throw new Error(`pane ${name} missing`);
  }
  return el;
}

/** Wait until the root is ready again after an interaction. */
export async function settled(root: HTMLElement): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await new Promise(r => setTimeout(r, 5));
    if (root.dataset.status === 'ready') {
      return;
    }
  }
  throw new Error('renderer did not become ready');
}
