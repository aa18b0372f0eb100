// The privacy-survival engine part: catalogue, walk and assessment (see README.md).
export { PRIVACY_AGENTS } from './catalogue.js';
export { PRIVACY_ISSUE_CODES } from './issues.js';
export { findSkip, stripUrl } from './match.js';
export { assessPrivacy } from './survival.js';
export { PRIVACY_AGENT_IDS } from './types.js';
export type {
  PrivacyAgent,
  PrivacyAgentId,
  PrivacyAssessment,
  PrivacyCookie,
  PrivacyEntry,
  PrivacyHop,
  PrivacyInput,
  SkipRule,
  StripRule,
} from './types.js';
export { walkChain } from './walk.js';
