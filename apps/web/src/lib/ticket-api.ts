import { useQuery } from '@tanstack/react-query';
import type { AdmissionTicket, Envelope } from '@zhikaoyun/shared';
import { loadHttp } from './lazy-http';

export const admissionTicketKey = (examId: number) => ['admissionTicket', examId] as const;

/**
 * The candidate's admission ticket, or why there is none yet (not published, or printing opens
 * at a time the server names): the card shows that reason instead of a toast.
 */
export function useAdmissionTicket(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: admissionTicketKey(examId),
    queryFn: async () => {
      const { getRaw } = await loadHttp();
      const body = await getRaw<Envelope<AdmissionTicket>>(`/api/getAdmissionTicket?examId=${examId}`, { silent: true });
      return body.success && body.data ? { ticket: body.data, reason: null } : { ticket: null, reason: body.msg ?? '准考证暂不可打印' };
    },
    enabled,
    staleTime: 60_000,
  });
}

/** Saves the ticket's PDF (a plain link could not send the session token). */
export async function downloadTicketPdf(examId: number, fileName: string): Promise<void> {
  const { http, bodyErrorText, RequestError } = await loadHttp();
  const res = await http.get<Blob>(`/api/getAdmissionTicketPdf?examId=${examId}`, { responseType: 'blob', raw: true, silent: true });
  // A refusal arrives as the JSON envelope, not as the file.
  if (res.data.type.includes('json')) {
    const envelope = JSON.parse(await res.data.text()) as Envelope;
    throw new RequestError(envelope.msg ?? bodyErrorText(envelope), res.status, envelope.errorCode);
  }
  const href = URL.createObjectURL(res.data);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
