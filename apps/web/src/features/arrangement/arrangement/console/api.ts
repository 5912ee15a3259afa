import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ArrangementOverview,
  ArrangeSeatsResult,
  DoorCheckExam,
  ExamSiteInput,
  LateArrangeResult,
  ExamSubjectInput,
  MoveSeatInput,
  SeatedCandidate,
  SaveExamRoomInput,
  SiteImportResult,
  VerifiedTicket,
} from '@zhikaoyun/shared';
import { arrangementKeys, examKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, getData, postData, uploadFile } from '../../../../lib/console-http';

/** A file name staff recognise: 考场签到表-<考点>.pdf, without characters file systems refuse. */
const safe = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_');

export const fetchOverview = (examId: number) => getData<ArrangementOverview>('/api/admin/getArrangement', { params: { examId } });
export const saveSubject = (input: ExamSubjectInput) => postData<{ id: number }>('/api/admin/saveExamSubject', input);
export const saveSite = (input: ExamSiteInput) => postData<{ id: number }>('/api/admin/saveExamSite', input);
export const saveRoom = (input: SaveExamRoomInput) => postData<{ id: number }>('/api/admin/saveExamRoom', input);
export const importSites = ({ examId, file }: { examId: number; file: File }) =>
  uploadFile<SiteImportResult>('/api/admin/importExamSites', file, { params: { examId } });
export const downloadSiteTemplate = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/getExamSiteTemplate', { params: { examId } }, examFileName('考点表模板', examName));
export const arrangeSeats = (input: { examId: number; seed?: string }) => postData<ArrangeSeatsResult>('/api/admin/arrangeSeats', input);
export const arrangeLateSeats = (input: { examId: number }) => postData<LateArrangeResult>('/api/admin/arrangeLateSeats', input);
export const fetchDoorCheckExam = () => getData<DoorCheckExam>('/api/admin/getDoorCheckExam');
// Without a toast: the move dialog shows the refusal beside the fields.
export const findSeated = (input: { examId: number; q: string }) =>
  getData<SeatedCandidate[]>('/api/admin/findSeatedCandidates', { params: input, silent: true });
export const moveSeat = (input: MoveSeatInput) => postData<{ ticketNo: string | null }>('/api/admin/moveSeat', input, { silent: true });
export const publishTickets = (input: { examId: number; printStart: string; printEnd: string }) =>
  postData<{ issued: number }>('/api/admin/publishTickets', input);
// Without a toast: the door check page shows the refusal itself, large.
export const verifyTicket = (input: { code: string; examId?: number }) =>
  postData<VerifiedTicket>('/api/admin/verifyTicket', input, { silent: true });
export const downloadRoomSheets = ({ examId, siteId, roomId, label }: { examId: number; siteId: number; roomId?: number; label: string }) =>
  downloadFile('/api/admin/getRoomSheetsPdf', { params: { examId, siteId, roomId } }, `考场签到表-${safe(label)}.pdf`);
export const exportArrangement = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/exportArrangement', { params: { examId } }, `考场编排-${safe(examName)}.xlsx`);

export function useOverview(examId: number | undefined) {
  return useQuery({ queryKey: arrangementKeys.overview(examId), queryFn: () => fetchOverview(examId!), enabled: examId !== undefined });
}

/** Every change here shows in the subjects, the sites and seats, and the exams' ticket state. */
function useArrangementMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: arrangementKeys.all() }), client.invalidateQueries({ queryKey: examKeys.all() })]),
  });
}

export const useSaveSubject = () => useArrangementMutation(saveSubject);
export const useSaveSite = () => useArrangementMutation(saveSite);
export const useSaveRoom = () => useArrangementMutation(saveRoom);
export const useImportSites = () => useArrangementMutation(importSites);
export const useArrangeSeats = () => useArrangementMutation(arrangeSeats);
export const useArrangeLateSeats = () => useArrangementMutation(arrangeLateSeats);
export const usePublishTickets = () => useArrangementMutation(publishTickets);
export const useDownloadRoomSheets = () => useMutation({ mutationFn: downloadRoomSheets });
export const useDownloadSiteTemplate = () => useMutation({ mutationFn: downloadSiteTemplate });
export const useExportArrangement = () => useMutation({ mutationFn: exportArrangement });
export const useFindSeated = () => useMutation({ mutationFn: findSeated });
export const useMoveSeat = () => useArrangementMutation(moveSeat);
export const useVerifyTicket = () => useMutation({ mutationFn: verifyTicket });
/** The exam the door check opens on (today's on the office clock); asked once per page visit. */
export function useDoorCheckExam(enabled: boolean) {
  return useQuery({ queryKey: arrangementKeys.doorCheckExam(), queryFn: fetchDoorCheckExam, enabled, staleTime: 60_000 });
}
