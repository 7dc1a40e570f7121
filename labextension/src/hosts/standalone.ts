/**
 * The standalone page of Dynamo Explorer (`dynamo-explorer run … --html`, `%%dynamo --html`): the same
 * `ReportView` the JupyterLab renderer draws, mounted on a plain page from the report embedded in it.
 *
 * esbuild bundles this file, the renderer's CSS (style/index.css and what it imports) and the wasm graphviz
 * into one IIFE plus one CSS file under kernel_ext/standalone/ (`npm run build:standalone`);
 * kernel_ext/export.py inlines both into the page, after the report:
 *
 *     <script type="application/json" id="dynamo-explorer-report">{…}</script>
 *     <script type="application/json" id="dynamo-explorer-parts">{…}</script>   (a trace's big guard trees)
 *     <div id="dynamo-explorer-root"></div>
 *
 * The root gets the classes and `data-status` ('loading', then 'ready') of the JupyterLab widget
 * (widget.ts), so the same CSS and the same browser checks apply.
 *
 * The page of a diff of two runs (`dynamo-explorer diff --html`) embeds the diff instead
 * (`<script type="application/json" id="dynamo-explorer-diff">`), drawn by the diff view (view/diffView.ts).
 */
import '../../style/index.css';
import { h } from '../dom';
import { CLASS_NAME, STANDALONE_CLASS } from './rootClasses';
import { checkDiff } from '../model/diffModel';
import { loadReport } from '../model/encoding';
import { embedParts } from '../model/partsModel';
import { DiffView } from '../view/diffView';
import { ReportView, showProblem } from '../view/view';

export { CLASS_NAME, STANDALONE_CLASS } from './rootClasses';

/** Id of the `<script type="application/json">` holding the report. */
export const REPORT_ID = 'dynamo-explorer-report';

/** Id of the `<script type="application/json">` holding a diff of two runs (the page of `diff --html`). */
export const DIFF_ID = 'dynamo-explorer-diff';

/** Id of the `<script type="application/json">` holding the parts a trace's report left in its log (compressed). */
export const PARTS_ID = 'dynamo-explorer-parts';

/** Id of the element the view is drawn into (created at the end of the body when missing). */
export const ROOT_ID = 'dynamo-explorer-root';

/**
 * Draw the embedded report into the root; resolves once everything shown is drawn (null when the page
 * holds no usable report: the root then shows why, as the JupyterLab widget does).
 */
export async function mount(doc: Document = document): Promise<ReportView | DiffView | null> {
  let root = doc.getElementById(ROOT_ID);
  if (!root) {
    root = h('div', { attrs: { id: ROOT_ID } });
    doc.body.appendChild(root);
  }
  root.classList.add(CLASS_NAME, STANDALONE_CLASS);
  root.replaceChildren(); // what the page shows without script (a diff's static summary) makes way
  root.dataset.status = 'loading';
  const diff = doc.getElementById(DIFF_ID);
  if (diff) {
    let data: unknown = null;
    try {
      data = JSON.parse(diff.textContent ?? '');
    } catch {
      data = null;
    }
    const checked = checkDiff(data);
    if (!checked.ok) {
      showProblem(root, checked);
      return null;
    }
    const view = new DiffView(root, checked.diff);
    view.start();
    return view;
  }
  const embedded = doc.getElementById(REPORT_ID);
  const check = embedded
    ? await loadReport(embedded.textContent ?? '')
    : ({
        ok: false,
        kind: 'malformed',
        message: `This page holds no Dynamo Explorer report (#${REPORT_ID}).`
      } as const);
  if (!check.ok) {
    showProblem(root, check);
    return null;
  }
  const parts = doc.getElementById(PARTS_ID);
  try {
    embedParts(parts ? JSON.parse(parts.textContent ?? '') : null);
  } catch {
    embedParts(null); // the parts' Load all then says why; the report is drawn all the same
  }
  const view = new ReportView(root, check.report);
  await view.start();
  return view;
}

if (typeof document !== 'undefined') {
  const start = (): void => {
    mount().catch((error: unknown) => {
      console.error('Dynamo Explorer: the report could not be drawn', error);
    });
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start, { once: true });
  } else {
    start();
  }
}
