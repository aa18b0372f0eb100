// The privacy catalogue: every agent in the contract's order (CONTRACT.md section 10), frozen.
import { ADGUARD_AGENT } from './adguard-data.js';
import { BRAVE_AGENT } from './brave-data.js';
import { BROWSER_AGENTS } from './browsers-data.js';
import { CLEARURLS_AGENT } from './clearurls-data.js';
import { PRIVACY_AGENT_IDS, type PrivacyAgent, type PrivacyAgentId } from './types.js';

const byId = new Map([...BROWSER_AGENTS, BRAVE_AGENT, ADGUARD_AGENT, CLEARURLS_AGENT].map((agent) => [agent.id, agent]));

export const PRIVACY_AGENTS: readonly PrivacyAgent[] = Object.freeze(
  PRIVACY_AGENT_IDS.map((id) => {
    const agent = byId.get(id);
    if (agent === undefined) throw new Error(`privacy catalogue: no data for agent ${id}`);
    return agent;
  }),
);

/** The agent's name for people ("Brave (default Shields)"). */
export function agentName(id: PrivacyAgentId): string {
  return PRIVACY_AGENTS.find((agent) => agent.id === id)?.name ?? id;
}
