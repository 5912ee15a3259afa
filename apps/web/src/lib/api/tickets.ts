import { useQuery } from '@tanstack/react-query';
import type { AdmissionTicket, Envelope } from '@zhikaoyun/shared';
import { download, getRaw } from '../api-client';
import { ticketKeys } from './keys';

/**
 * The candidate's admission ticket, or why there is none yet (not published, or printing opens
 * at a time the server names): the card shows that reason instead of a toast.
 */
export function useAdmissionTicket(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: ticketKeys.mine(examId),
    queryFn: async () => {
      const body = await getRaw<Envelope<AdmissionTicket>>('/api/getAdmissionTicket', { params: { examId }, silent: true });
      return body.success && body.data ? { ticket: body.data, reason: null } : { ticket: null, reason: body.msg ?? '准考证暂不可打印' };
    },
    enabled,
    staleTime: 60_000,
  });
}

/** Saves the ticket's PDF; a refusal is thrown, not shown (the card says it in its own words). */
export const downloadTicketPdf = (examId: number, fileName: string) =>
  download('/api/getAdmissionTicketPdf', { params: { examId }, silent: true }, fileName);
