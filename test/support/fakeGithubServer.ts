// A loopback fake of the few GitHub REST routes the action uses (real HTTP; the client's base URL points here).
// Branches are read from a real bare git repository — the `origin` the action pushes to — so a pull request for a
// branch that was never pushed is refused with GitHub's own 422, as GitHub would.
import { execFileSync } from 'child_process';
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface GithubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: any;
}

export interface Refusal {
  status: number;
  message: string;
}

export interface FakeGithubOptions {
  /** The bare repository playing `origin`: its branches are the repository's branches. */
  origin: string;
  /** The token every request must carry. */
  token: string;
  /** Branches that exist on GitHub besides those in origin (e.g. one another workflow made). */
  extraBranches?: string[];
  /** Answers a route ("POST /repos/o/r/pulls") with an error instead of its normal answer. */
  refuse?: (method: string, path: string) => Refusal | undefined;
}

export interface FakeGithub {
  url: string;
  requests: GithubRequest[];
  pulls: any[];
  comments: Array<{ issue: number; body: string }>;
  close(): Promise<void>;
}

export async function startFakeGithub(opts: FakeGithubOptions): Promise<FakeGithub> {
  const requests: GithubRequest[] = [];
  const pulls: any[] = [];
  const comments: Array<{ issue: number; body: string }> = [];
  const branchExists = (name: string) => {
    if (opts.extraBranches?.includes(name)) return true;
    return execFileSync('git', ['ls-remote', '--heads', opts.origin, `refs/heads/${name}`], { encoding: 'utf8' }).trim() !== '';
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
      const method = req.method ?? 'GET';
      requests.push({ method, path, headers: req.headers, rawBody, body });
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(data));
      };
      if (req.headers.authorization !== `token ${opts.token}` && req.headers.authorization !== `Bearer ${opts.token}`) {
        return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      }
      const refused = opts.refuse?.(method, path);
      if (refused) return send(refused.status, { message: refused.message, documentation_url: 'https://docs.github.com/rest' });
      let m = /^\/repos\/([^/]+)\/([^/]+)\/branches\/(.+)$/.exec(path);
      if (method === 'GET' && m) {
        return branchExists(m[3]) ? send(200, { name: m[3], protected: false }) : send(404, { message: 'Branch not found' });
      }
      m = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(path);
      if (method === 'POST' && m) {
        if (!body?.head || !branchExists(body.head) || !body.base || !branchExists(body.base)) {
          return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] });
        }
        const number = 100 + pulls.length;
        const pull = { ...body, number, html_url: `https://github.example/${m[1]}/${m[2]}/pull/${number}` };
        pulls.push(pull);
        return send(201, pull);
      }
      m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path);
      if (method === 'POST' && m) {
        comments.push({ issue: Number(m[3]), body: body?.body });
        return send(201, { id: comments.length, html_url: `https://github.example/${m[1]}/${m[2]}/pull/${m[3]}#issuecomment-${comments.length}` });
      }
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pulls,
    comments,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
