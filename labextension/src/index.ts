/**
 * The JupyterLab MIME extension of Dynamo Explorer: renders `%%dynamo` compile reports.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { RenderedReport } from './widget';

export { checkReport, SUPPORTED_MAJORS } from './model';
export { CLASS_NAME, RenderedReport } from './widget';

/**
 * The MIME type of a compile report.
 *
 * #### Notes
 * The version in the name follows the major of compiler/schema/compile_report.v1.schema.json; the payload
 * carries major.minor in `schema_version`. A new major adds a new MIME type to `rendererFactory.mimeTypes`.
 */
export const MIME_TYPE = 'application/vnd.dynamo-explorer.report.v1+json';

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
