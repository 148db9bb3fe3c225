// Where a person finds a run on GitHub, and its text without the runner's own paths: the job summary is read on
// github.com and becomes a pull request's body, where /home/runner/work/… leads nowhere and shows the runner's layout.
import * as path from 'path';

export interface RunLink {
  /** The run's page: ${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID}. */
  url: string;
  /** Its artifacts, where actions/upload-artifact puts the report and the patch. */
  artifacts: string;
  id: string;
}

export function runLinkOf(env: NodeJS.ProcessEnv): RunLink | undefined {
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, '');
  const { GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  if (!server || !repo || !id) return undefined;
  const url = `${server}/${repo}/actions/runs/${id}`;
  return { url, artifacts: `${url}#artifacts`, id };
}

/**
 * The runner's folders as a person names them in a workflow: the checkout ($GITHUB_WORKSPACE), the runner's temp, its
 * tool cache, the home folder. Longest first, so the deepest one names a path.
 */
export function localPlaces(env: NodeJS.ProcessEnv): Array<[string, string]> {
  const places: Array<[string | undefined, string]> = [
    [env.GITHUB_WORKSPACE, '$GITHUB_WORKSPACE'], [env.RUNNER_TEMP, '$RUNNER_TEMP'], [env.RUNNER_TOOL_CACHE, '$RUNNER_TOOL_CACHE'], [env.HOME, '~'],
  ];
  const named = new Map<string, string>();
  for (const [dir, name] of places) {
    const full = dir ? path.resolve(dir) : '';
    // The first name a folder has wins; a root names nothing.
    if (full && full !== path.parse(full).root && !named.has(full)) named.set(full, name);
  }
  return [...named].sort((a, b) => b[0].length - a[0].length);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with each runner folder (and what lies under it) written by its name instead. */
export function withoutLocalPaths(text: string, places: Array<[string, string]>): string {
  if (!places.length) return text;
  // A folder only where it ends: /home/runner names no part of /home/runners.
  const pattern = new RegExp(places.map(([dir]) => `${escapeRegExp(dir)}(?![\\w.-])`).join('|'), 'g');
  const names = new Map(places);
  return text.replace(pattern, (dir) => names.get(dir) ?? dir);
}
