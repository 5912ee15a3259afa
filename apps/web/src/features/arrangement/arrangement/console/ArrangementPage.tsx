import { DownloadOutlined, ScanOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { useExportArrangement, useOverview } from './api';
import { ArrangementSummary } from './ArrangementSummary';
import { MoveSeatCard } from './MoveSeatCard';
import { SeatingCard } from './SeatingCard';
import { SitesCard } from './SitesCard';
import { SubjectsCard } from './SubjectsCard';

/**
 * 考场编排: an exam's subjects, sites and rooms (one by one or from Excel), the seat arrangement
 * with an optional seed, publishing the tickets with a print window, and the room sheets and
 * export. The exam is in the address (`?examId=`).
 */
export default function ArrangementPage() {
  const { examId, exams, chooseExam } = useExamParam();
  const exam = exams.data?.find((e) => e.id === examId);
  const overview = useOverview(examId);
  const exporting = useExportArrangement();
  const o = overview.data;
  const published = o?.ticketsPublishedAt != null;
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">考场编排</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <ButtonLink icon={<ScanOutlined aria-hidden />} to={`/admin/door-check${examId !== undefined ? `?examId=${examId}` : ''}`}>
          验证准考证
        </ButtonLink>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          disabled={examId === undefined || !o || o.seated === 0}
          loading={exporting.isPending}
          onClick={() => examId !== undefined && exporting.mutate({ examId, examName: exam?.name ?? String(examId) })}
        >
          导出编排表
        </Button>
      </div>

      {o && <ArrangementSummary o={o} />}

      <SubjectsCard examId={examId} published={published} />

      <SitesCard examId={examId} examName={exam?.name ?? String(examId)} o={o} loading={overview.isLoading} />

      <SeatingCard examId={examId} o={o} />

      {examId !== undefined && o && o.seated > 0 && <MoveSeatCard examId={examId} sites={o.sites} />}
    </div>
  );
}
