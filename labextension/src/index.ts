/**
 * The JupyterLab MIME extension of Dynamo Explorer: renders `%%dynamo` compile reports.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { MIME_TYPE } from './schema';
import { RenderedReport } from './widget';

export { checkReport } from './model';
/**
 * The MIME type of a compile report and the majors this renderer reads, generated from
 * compiler/schema/compile_report.v1.schema.json (`x-dynamo-explorer`), as Python reads them. The payload
 * carries major.minor in `schema_version`. A new major adds a new MIME type to `rendererFactory.mimeTypes`.
 */
export { MIME_TYPE, SCHEMA_VERSION, SUPPORTED_MAJORS } from './schema';
export { CLASS_NAME, RenderedReport } from './widget';

/**
 * The renderer factory. `safe: true`: the DOM is built from text nodes only, so untrusted outputs render.
 */
export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [MIME_TYPE],
  defaultRank: 0,
  createRenderer: options => new RenderedReport(options.mimeType)
};

/**
 * The extension JupyterLab loads.
 */
const extension: IRenderMime.IExtension = {
  id: 'dynamo-explorer:plugin',
  rendererFactory,
  rank: 0,
  dataType: 'json'
};

export default extension;
