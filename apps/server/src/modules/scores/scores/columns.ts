/** The score sheet's fixed columns: the import reads them and the ranking export writes them, so an export reads back in. */
export const TICKET_COLUMN = '准考证号';
export const BONUS_COLUMN = '加分';
/** Optional in a sheet; when there, each row's name must be the ticket holder's (a row pasted against the wrong ticket shows). */
export const NAME_COLUMN = '姓名';
