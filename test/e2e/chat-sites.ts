/**
 * Serves saved chat pages under their real host names (docs/architecture.md#the-background-by-feature, "Capture" tests): a local HTTPS
 * server with a self-signed certificate made by `openssl` at test time, and the Chromium flags
 * that send chatgpt.com, claude.ai and gemini.google.com to it (`--host-resolver-rules`) and accept
 * its certificate, so the real content script runs on the pages. Nothing here reaches the network.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CHAT_HOSTS = ['chatgpt.com', 'claude.ai', 'gemini.google.com'] as const;

/** One page: `https://<host><path>` answers `body` (an HTML fragment, wrapped in a document). */
export interface SitePage {
  host: (typeof CHAT_HOSTS)[number];
  path: string;
  title?: string;
  body: string;
}

export interface ChatSites {
  port: number;
  /** Chromium flags for {@link ExtensionBrowser.launch}'s `extraArgs`. */
  chromiumArgs: string[];
  /** Every request the server got, `host + path`. */
  requests: string[];
  close(): Promise<void>;
}

/** Whether `openssl` is on this machine (the capture tests skip with a message without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

function makeCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=chatgpt.com',
        '-addext',
        `subjectAltName=${CHAT_HOSTS.map((h) => `DNS:${h}`).join(',')}`,
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Starts the server on 127.0.0.1 (a free port). Unknown paths answer 404; nothing is fetched elsewhere. */
export async function startChatSites(pages: readonly SitePage[]): Promise<ChatSites> {
  const requests: string[] = [];
  const server = https.createServer(makeCertificate(), (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = req.url ?? '/';
    requests.push(`${host}${url}`);
    const page = pages.find((p) => p.host === host && p.path === url);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const doc = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(page.title ?? '')}</title></head><body>${page.body}</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(doc);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    chromiumArgs: [
      `--host-resolver-rules=${CHAT_HOSTS.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`,
      '--ignore-certificate-errors',
    ],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
