/**
 * A second, unrelated test extension (M4): an unpacked MV3 extension written to a temporary
 * folder, whose service worker (`probe-sw.js`) a test drives to message Baton from outside.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'playwright-core';

/** Writes the probe extension and returns its absolute folder. */
export function writeProbeExtension(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-probe-'));
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Baton e2e probe',
      version: '1.0',
      background: { service_worker: 'probe-sw.js' },
    }),
  );
  fs.writeFileSync(path.join(dir, 'probe-sw.js'), "self.addEventListener('install', () => self.skipWaiting());\n");
  return dir;
}

/** What the probe got back when it tried to reach Baton. */
export interface ProbeResult {
  /** `runtime.sendMessage(batonId, …)`: the reply, if any came. */
  reply?: unknown;
  /** The error `sendMessage` rejected with, if it did. */
  sendError?: string;
  /** `runtime.connect(batonId)`: messages received before the port closed (or 3 s passed). */
  portMessages: unknown[];
  portDisconnected: boolean;
}

interface ProbeChrome {
  runtime: {
    sendMessage(id: string, message: unknown): Promise<unknown>;
    connect(
      id: string,
      info: { name: string },
    ): {
      onMessage: { addListener(cb: (m: unknown) => void): void };
      onDisconnect: { addListener(cb: () => void): void };
      postMessage(m: unknown): void;
    };
    lastError?: { message?: string };
  };
}

/** From the probe's worker: sends `message` to Baton and opens a port named `portName` to it. */
export function probeBaton(probe: Worker, batonId: string, message: unknown, portName: string): Promise<ProbeResult> {
  return probe.evaluate(
    async ({ batonId, message, portName }) => {
      const chrome = (globalThis as unknown as { chrome: ProbeChrome }).chrome;
      const out: ProbeResult = { portMessages: [], portDisconnected: false };
      try {
        out.reply = await chrome.runtime.sendMessage(batonId, message);
      } catch (e) {
        out.sendError = e instanceof Error ? e.message : String(e);
      }
      await new Promise<void>((resolve) => {
        const port = chrome.runtime.connect(batonId, { name: portName });
        port.onMessage.addListener((m) => out.portMessages.push(m));
        port.onDisconnect.addListener(() => {
          void chrome.runtime.lastError;
          out.portDisconnected = true;
          resolve();
        });
        try {
          port.postMessage(message);
        } catch {
          // a port that is already closed
        }
        setTimeout(resolve, 3000);
      });
      return out;
    },
    { batonId, message, portName },
  );
}
