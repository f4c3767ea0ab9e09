import { ToolInputError } from '../errors/tool-input-error';
import type { AgentServerHandle, AgentServerOptions } from './agent-server-options';
import type { ServableAgent } from './servable-agent';
import type { AgentTransport } from './agent-options';
import { loadAgentServer } from './agent-lazy-modules';

/** What serving needs from its agent: the agent itself, its name and its transport. */
type ServingAgent = ServableAgent & { readonly name: string; readonly transport: AgentTransport };

/** The server an agent's `start()` runs: at most one at a time, started once, stopped by `stop()`. */
export class AgentServing {
  private server: Promise<AgentServerHandle> | undefined;

  /**
   * Starts serving the agent, or returns the running server.
   *
   * @throws ToolInputError when the agent's transport is not `'http'` or the address cannot be used.
   */
  async start(agent: ServingAgent, options: AgentServerOptions): Promise<AgentServerHandle> {
    if (agent.transport !== 'http') {
      throw new ToolInputError(
        `Agent '${agent.name}' uses transport '${agent.transport}': create it with transport: 'http' to serve its tools with start().`,
      );
    }
    if (this.server) return this.server;
    // Loaded here: serving needs the MCP SDK, which `import 'protolink'` never loads.
    const { startAgentServer } = loadAgentServer();
    this.server = startAgentServer(agent, options);
    try {
      return await this.server;
    } catch (error) {
      this.server = undefined;
      throw error;
    }
  }

  /** Stops serving (closes sessions and connections); does nothing when nothing is served. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await (await server).close();
  }
}
