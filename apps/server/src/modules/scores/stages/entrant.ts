import { laterStateOf, type LaterFacts, type LaterStatus, type StageRow } from '@zhikaoyun/shared';

/** An entrant of the stages as the machine after confirmation sees it: scored, on the interview list. */
export const ENTRANT: LaterFacts = {
  scored: true,
  listed: true,
  leftList: false,
  qualification: null,
  interview: null,
  inMedical: false,
  medical: null,
};
/** Where an entrant stands before any interview mark: what an import (which replaces them all) is judged from. */
export const beforeInterview = (qualification: StageRow['qualification']): LaterStatus => laterStateOf({ ...ENTRANT, qualification });
