/**
 * The Lumino widget JupyterLab creates for each output with our MIME type.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { loadReport } from '../model/encoding';
import { holdParts } from '../model/partsModel';
import { PARTS_MIME_TYPE } from '../schema';
import { announceReport, withdrawReport } from '../view/reportHub';
import { CLASS_NAME } from './rootClasses';
import { ReportView, showProblem } from '../view/view';

export { CLASS_NAME } from './rootClasses';

/**
 * Renders one compile report.
 */
export class RenderedReport extends Widget implements IRenderMime.IRenderer {
  private _view: ReportView | null = null;
  private _releaseParts: () => void = () => undefined;

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
    this._releaseParts = holdParts(model.data[PARTS_MIME_TYPE], 'notebook');
    await this._draw(model.data[this._mimeType]);
    // For the benchmark: milliseconds from renderModel() to the first complete view.
    this.node.dataset.renderMs = String(Math.round(performance.now() - started));
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
