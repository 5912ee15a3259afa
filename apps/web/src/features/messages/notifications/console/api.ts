import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnnouncementAudience,
  AnnouncementInput,
  AnnouncementPreview,
  AnnouncementResult,
  NotificationSettings,
  OutboxList,
  SmsStatus,
} from '@zhikaoyun/shared';
import { messageKeys } from '../../../../lib/api/console-keys';
import { getData, postData } from '../../../../lib/console-http';

export const OUTBOX_PAGE_SIZE = 20;

export function useOutbox(status: SmsStatus | undefined, page: number) {
  return useQuery({
    queryKey: messageKeys.outboxPage(status, page),
    queryFn: () => getData<OutboxList>('/api/admin/getSmsOutbox', { params: { status, page, pageSize: OUTBOX_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Delivery goes on in the background: the statuses move while the page is open.
    refetchInterval: 5_000,
  });
}

export function useRetrySms() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => postData<null>('/api/admin/retrySms', { id }),
    onSuccess: () => void client.invalidateQueries({ queryKey: messageKeys.outbox() }),
  });
}

export function useAnnouncementPreview(examId: number | undefined, audience: AnnouncementAudience) {
  return useQuery({
    queryKey: messageKeys.announcementPreview(examId, audience),
    queryFn: () => postData<AnnouncementPreview>('/api/admin/previewAnnouncement', { examId, audience }),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function useSendAnnouncement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AnnouncementInput) => postData<AnnouncementResult>('/api/admin/sendAnnouncement', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: messageKeys.outbox() }),
  });
}

export function useNotificationSettings() {
  return useQuery({ queryKey: messageKeys.settings(), queryFn: () => getData<NotificationSettings>('/api/admin/getNotificationSettings') });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationSettings) => postData<NotificationSettings>('/api/admin/saveNotificationSettings', input),
    onSuccess: (data) => client.setQueryData(messageKeys.settings(), data),
  });
}
