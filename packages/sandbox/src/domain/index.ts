/**
 * Public API of the sandbox's domain layer: data model, embedded dataset, data files, store search and
 * practice. No HTTP here; the server wires these functions to routes. See `README.md` next to this file.
 */

export type { DataFileValidation } from "./data-file.js";
export { DATA_FILE_FORMAT_VERSION, parseDataFile, readDataFile, validateDataFile } from "./data-file.js";
export {
  createDefaultDataset,
  DEFAULT_DATASET_SEED,
  DEFAULT_IDS,
  generateLargeDataset,
} from "./dataset.js";
export type { DataFileProblem, DomainErrorId, SandboxDomainErrorCode } from "./errors.js";
export { DataFileError, DOMAIN_ERROR_STATUS, DomainError, SandboxDomainError } from "./errors.js";
export type { PracticeOptions } from "./practice.js";
export { expectedDurationOf, PROFICIENCY_RATES, SECONDS_PER_ITEM } from "./practice.js";
export { foldText, SearchIndex, tokenize } from "./search-index.js";
export type { StateOptions } from "./state.js";
export { createState, SandboxState } from "./state.js";
export type { ParsedQuery, QueryWord, StoreSearchParams } from "./store-search.js";
export { parsePaging, parseQuery } from "./store-search.js";
export type {
  AnswerRequest,
  AnswerResult,
  Catalog,
  Course,
  Drill,
  Drillable,
  DrillablePractice,
  DrillableRecord,
  Drillables,
  DrillItem,
  Group,
  Organization,
  Proficiency,
  QuestionResponse,
  Rendition,
  SandboxData,
  SearchField,
  ServiceAccountPublicKey,
  Term,
  User,
} from "./types.js";
export { COURSE_TYPE, DRILL_TYPE, SEARCH_FIELDS } from "./types.js";
