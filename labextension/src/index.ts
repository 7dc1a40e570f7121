/**
 * The JupyterLab MIME extension of Dynamo Explorer: renders `%%dynamo` compile reports, and diffs of two runs
 * (`%dynamo_diff`, `explore.diff`).
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { DIFF_MIME_TYPE } from './diffSchema';
import { MIME_TYPE } from './schema';
import { RenderedDiff } from './hosts/diffWidget';
import { RenderedReport } from './hosts/widget';

export { checkReport } from './model/model';
/**
 * The MIME type of a compile report and the majors this renderer reads, generated from
 * compiler/schema/compile_report.v1.schema.json (`x-dynamo-explorer`), as Python reads them. The payload
 * carries major.minor in `schema_version`. A new major adds a new MIME type to `rendererFactory.mimeTypes`.
 */
export { MIME_TYPE, SCHEMA_VERSION, SUPPORTED_MAJORS } from './schema';
export { CLASS_NAME, RenderedReport } from './hosts/widget';
export { DIFF_MIME_TYPE, DIFF_VERSION } from './diffSchema';
export { RenderedDiff } from './hosts/diffWidget';

/**
 * Our rank among JupyterLab's renderers (the lowest rank draws). A `%%dynamo` output also carries the explorer as
 * a widget (kernel_ext/widget.py) for frontends without this extension, and ipywidgets registers its widget
 * renderer at -10, above every other MIME type: below that, this renderer draws where it is installed, and it
 * draws from the output itself, also in a saved notebook whose kernel is gone.
 */
export const RANK = -20;

/**
 * The renderer factory. `safe: true`: the DOM is built from text nodes only, so untrusted outputs render.
 */
export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [MIME_TYPE],
  defaultRank: RANK,
  createRenderer: options => new RenderedReport(options.mimeType)
};

/** The renderer factory of a diff of two runs (the same rank, and safe for the same reason). */
export const diffRendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [DIFF_MIME_TYPE],
  defaultRank: RANK,
  createRenderer: options => new RenderedDiff(options.mimeType)
};

/**
 * The extensions JupyterLab loads: the report's renderer and the diff's.
 */
const extensions: IRenderMime.IExtension[] = [
  { id: 'dynamo-explorer:plugin', rendererFactory, rank: RANK, dataType: 'json' },
  { id: 'dynamo-explorer:diff', rendererFactory: diffRendererFactory, rank: RANK, dataType: 'json' }
];

export default extensions;
