/**
 * The branch of a ChatGPT `mapping` tree to import (security-requirements.md I3: mapping cycles,
 * dangling parents, missing or unknown `current_node`, duplicate ids). The branch is the path from
 * `current_node` up through `parent` links; every walk is iterative and visits a node at most once,
 * so hostile trees finish in linear time.
 */
import { TranscriptError } from '../transcript/codec';
import { isRecord, str, type JsonObject } from './common';

/** One node of the mapping, keyed by its mapping key (the node's own `id` field is not trusted). */
export interface ChatNode {
  key: string;
  parent?: string;
  message?: JsonObject;
}

/** The linearised branch, root first, and what was repaired on the way. */
export interface Branch {
  nodes: ChatNode[];
  warnings: string[];
}

function createTime(n: ChatNode): number {
  const t = n.message?.create_time;
  return typeof t === 'number' && Number.isFinite(t) ? t : -Infinity;
}

/**
 * Picks and linearises the conversation's branch:
 * - from `current_node` when it names a node of the mapping;
 * - else (missing or unknown) from the newest leaf that holds a message (largest `create_time`,
 *   later in the mapping on ties), with a warning;
 * - a `parent` that is not in the mapping (dangling) ends the walk: the branch starts below it,
 *   with a warning.
 * @throws TranscriptError when `mapping` is not an object, the walk meets a cycle, or there is no
 *   node to start from.
 */
export function selectBranch(mapping: unknown, currentNode: unknown): Branch {
  if (!isRecord(mapping))
    throw new TranscriptError(
      'mapping',
      mapping === undefined ? 'missing: the conversation has no message tree' : 'expected an object of nodes',
    );
  const warnings: string[] = [];
  const nodes = new Map<string, ChatNode>();
  let malformed = 0;
  for (const [key, raw] of Object.entries(mapping)) {
    if (!isRecord(raw)) {
      malformed++;
      continue;
    }
    const node: ChatNode = { key };
    const parent = str(raw.parent);
    if (parent !== undefined) node.parent = parent;
    if (isRecord(raw.message)) node.message = raw.message;
    nodes.set(key, node);
  }
  if (malformed)
    warnings.push(
      `${malformed} mapping entr${malformed === 1 ? 'y was' : 'ies were'} not node objects and were ignored`,
    );

  const current = str(currentNode);
  let start = current !== undefined ? nodes.get(current) : undefined;
  if (!start) {
    const parents = new Set<string>();
    for (const n of nodes.values()) if (n.parent !== undefined) parents.add(n.parent);
    for (const n of nodes.values()) {
      if (parents.has(n.key) || !n.message) continue;
      if (!start || createTime(n) >= createTime(start)) start = n;
    }
    if (!start)
      throw new TranscriptError(
        'current_node',
        `${current === undefined ? 'missing' : `unknown node ${JSON.stringify(current)}`} and no leaf message to fall back on`,
      );
    warnings.push(
      `current_node ${current === undefined ? 'missing' : `${JSON.stringify(current)} is not in the mapping`}: followed the newest leaf ${JSON.stringify(start.key)}`,
    );
  }

  const path: ChatNode[] = [];
  const visited = new Set<string>();
  for (let node: ChatNode | undefined = start; node;) {
    if (visited.has(node.key))
      throw new TranscriptError('mapping', `cycle: node ${JSON.stringify(node.key)} is its own ancestor`);
    visited.add(node.key);
    path.push(node);
    if (node.parent === undefined) break;
    const parent = nodes.get(node.parent);
    if (!parent) {
      warnings.push(
        `node ${JSON.stringify(node.key)} has parent ${JSON.stringify(node.parent)}, which is not in the mapping: the branch starts there`,
      );
      break;
    }
    node = parent;
  }
  return { nodes: path.reverse(), warnings };
}
