/** The score sheet's fixed columns: the import reads them and the ranking export writes them, so an export reads back in. */
export const TICKET_COLUMN = '准考证号';
export const BONUS_COLUMN = '加分';
