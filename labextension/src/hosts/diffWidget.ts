/**
 * The Lumino widget JupyterLab creates for each output with the diff's MIME type
 * (`application/vnd.dynamo-explorer.diff.v1+json`: `%dynamo_diff`, `explore.diff`): the diff view (view/diffView.ts).
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { checkDiff } from '../model/diffModel';
import { DiffView } from '../view/diffView';
import { showProblem } from '../view/view';
import { CLASS_NAME } from './rootClasses';

/** Renders one diff of two runs. */
export class RenderedDiff extends Widget implements IRenderMime.IRenderer {
  private _view: DiffView | null = null;

  constructor(private readonly _mimeType: string) {
    super();
    this.addClass(CLASS_NAME);
    this.node.dataset.status = 'loading';
  }

  /** The view drawn now (null before the first render or for a rejected payload). */
  get view(): DiffView | null {
    return this._view;
  }

  /** Render a diff into the widget. */
  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this._view?.dispose();
    this._view = null;
    this.node.replaceChildren();
    this.node.dataset.status = 'loading';
    const check = checkDiff(model.data[this._mimeType]);
    if (!check.ok) {
      showProblem(this.node, check);
      return Promise.resolve();
    }
    this._view = new DiffView(this.node, check.diff);
    this._view.start();
    return Promise.resolve();
  }

  dispose(): void {
    this._view?.dispose();
    this._view = null;
    super.dispose();
  }
}
