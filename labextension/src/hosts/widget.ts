/**
 * The Lumino widget JupyterLab creates for each output with our MIME type.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { loadReport } from '../model/encoding';
import { announceReport, withdrawReport } from '../view/reportHub';
import { CLASS_NAME } from './rootClasses';
import { ReportView, showProblem } from '../view/view';

export { CLASS_NAME } from './rootClasses';

/**
 * Renders one compile report.
 */
export class RenderedReport extends Widget implements IRenderMime.IRenderer {
  private _view: ReportView | null = null;

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
    this._teardown();
    const node = this.node;
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    node.dataset.status = 'loading';
    const check = await loadReport(model.data[this._mimeType]);
    if (!check.ok) {
      showProblem(node, check);
      return;
    }
    const view = new ReportView(node, check.report);
    this._view = view;
    await view.start();
    if (this._view === view && !this.isDisposed) {
      announceReport(node, view); // the notebook's cell gutter (cellGutter.ts) listens
    }
    // For the benchmark: milliseconds from renderModel() to the first complete view.
    node.dataset.renderMs = String(Math.round(performance.now() - started));
  }

  /**
   * Dispose of the view and its listeners.
   */
  dispose(): void {
    this._teardown();
    super.dispose();
  }

  private _teardown(): void {
    withdrawReport(this.node);
    this._view?.dispose();
    this._view = null;
  }
}
