/**
 * The classes of a drawn report's root, shared by its three hosts: the JupyterLab renderer (widget.ts), the
 * standalone page (standalone.ts) and the anywidget (anywidget.ts). A module of its own so that neither page
 * bundles Lumino to learn them.
 */

/** Class of the renderer's root: every rule of the renderer's CSS hangs on it, and the browser tests select on it. */
export const CLASS_NAME = 'jp-DynamoExplorer';

/** Class of a root on a page without JupyterLab's theme: the light-theme `--jp-*` values (kernel_ext/export.py `THEME`) hang on it. */
export const STANDALONE_CLASS = 'jp-DynamoExplorer-standalone';
