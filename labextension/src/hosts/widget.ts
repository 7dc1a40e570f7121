/**
 * The Lumino widget JupyterLab creates for each output with our MIME type.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { loadReport } from '../model/encoding';
import { holdParts } from '../model/partsModel';
import { PARTS_MIME_TYPE } from '../schema';
import { announceReport, completeParts, withdrawReport } from '../view/reportHub';
import { CLASS_NAME } from './rootClasses';
import { ReportView, showProblem } from '../view/view';

export { CLASS_NAME } from './rootClasses';

/**
 * Renders one compile report.
 */
export class RenderedReport extends Widget implements IRenderMime.IRenderer {
  private _view: ReportView | null = null;
  private _releaseParts: () => void = () => undefined;
  /** The report payload drawn now (its stored form, as the output holds it). */
  private _payload: unknown = undefined;
  /** The kernel was asked to complete this output's parts (once). */
  private _completing = false;

  /**
   * Construct a renderer for one MIME type.
   */
  constructor(private readonly _mimeType: string) {
    super();
    this.addClass(CLASS_NAME);
    this.node.dataset.status = 'loading';
  }

  /** The view drawn now (null before the first render or for a rejected payload). */
  get view(): ReportView | null {
    return this._view;
  }

  /**
   * Render a report into the widget.
   */
  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const started = performance.now();
    this._releaseParts(); // what the output holds in part beside the report (a saved notebook: no kernel needed)
    const parts = model.data[PARTS_MIME_TYPE];
    this._releaseParts = holdParts(parts, 'notebook');
    const payload = model.data[this._mimeType];
    if (this._view && samePayload(this._payload, payload)) {
      this.node.dataset.partsHeld = String(heldCount(parts)); // the kernel completed the output: the view stays
      return;
    }
    this._payload = payload;
    await this._draw(payload);
    // For the benchmark: milliseconds from renderModel() to the first complete view.
    this.node.dataset.renderMs = String(Math.round(performance.now() - started));
    this.node.dataset.partsHeld = String(heldCount(parts));
    this._completeParts(parts);
  }

  /**
   * [Note: an output completed once drawn] (kernel_ext/parts.py) Once the view is drawn, ask the kernel that ran the
   * cell to write the parts this output lacks into it (those past its first 4 MB), so that a saved notebook holds
   * every guard; the kernel updates the output's data in place and `renderModel` keeps the view.
   */
  private _completeParts(parts: unknown): void {
    const held = heldKeys(parts);
    const lacking = (this._view?.report.parts_cut ?? []).find(c => !c.log && !(c.key in held));
    if (!lacking || this._completing) {
      return;
    }
    this._completing = true;
    const ask = (): void => {
      const asked = this.isDisposed ? false : completeParts(this.node, lacking.key);
      if (asked) {
        asked.catch(() => undefined); // no kernel, or it no longer keeps the run: the output keeps what it holds
      }
    };
    const idle = (window as { requestIdleCallback?: (f: () => void, o?: { timeout: number }) => number })
      .requestIdleCallback;
    if (idle) {
      idle(ask, { timeout: 2000 });
    } else {
      setTimeout(ask, 0);
    }
  }

  /** Draw `payload` (a report, or its stored form) in place of what the widget shows. */
  private async _draw(payload: unknown): Promise<void> {
    this._teardown();
    const node = this.node;
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    node.dataset.status = 'loading';
    const check = await loadReport(payload);
    if (!check.ok) {
      showProblem(node, check);
      return;
    }
    const view = new ReportView(node, check.report);
    this._view = view;
    await view.start();
    if (this._view === view && !this.isDisposed) {
      // the notebook's cell gutter (cellGutter.ts) listens; the ranks view draws another rank here (redraw)
      announceReport(node, view, report => this._draw(report));
    }
  }

  /**
   * Dispose of the view and its listeners.
   */
  dispose(): void {
    this._teardown();
    this._releaseParts();
    super.dispose();
  }

  private _teardown(): void {
    withdrawReport(this.node);
    this._view?.dispose();
    this._view = null;
  }
}

/** Whether two payloads of our MIME type are one report (a string compared as is; a small report by its JSON). */
function samePayload(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a === 'string' || typeof b === 'string' || a === undefined || b === undefined) {
    return false;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The keys of the parts an output holds beside its report (PARTS_MIME_TYPE: `{keys: {key: blob index}, blobs}`). */
function heldKeys(parts: unknown): Record<string, number> {
  return (parts as { keys?: Record<string, number> } | undefined)?.keys ?? {};
}

/** How many parts an output holds beside its report. */
function heldCount(parts: unknown): number {
  return Object.keys(heldKeys(parts)).length;
}
