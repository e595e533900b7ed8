/**
 * Tool definitions sent once per name, shared by the four converters. Every API rejects a tool
 * list that names a tool twice (Anthropic "Tool names must be unique"; OpenAI Chat and Responses,
 * Gemini function declarations likewise), and a valid transcript may still list a name twice.
 */
import type { ReportBuilder } from '../transcript/report';
import type { ToolDefinition } from '../transcript/schema';

/**
 * `defs` with each (mapped) tool name kept once: the first definition wins, and each later one is
 * left out with a warning that names it. Order is kept; the input is not mutated.
 */
export function uniqueTools(defs: readonly ToolDefinition[], report: ReportBuilder): ToolDefinition[] {
  const seen = new Set<string>();
  const out: ToolDefinition[] = [];
  defs.forEach((def, index) => {
    if (seen.has(def.name)) {
      report.warn(
        `tool ${def.name} is defined more than once: definition ${index + 1} left out, the first one is sent`,
      );
      return;
    }
    seen.add(def.name);
    out.push(def);
  });
  return out;
}
