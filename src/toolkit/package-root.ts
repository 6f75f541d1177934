import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The directory holding package.json. This module runs from src/toolkit/ (tests, through tsx) and
 * compiled from dist/src/toolkit/ (npm start, the bin), so files kept beside the sources (migrations,
 * the web app's build, package.json) are found from the package root, not from the running module.
 */
export const PACKAGE_ROOT = ((sourceParent) => (existsSync(path.join(sourceParent, 'package.json')) ? sourceParent : path.dirname(sourceParent)))(
  path.resolve(import.meta.dirname, '../..'),
);

export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
