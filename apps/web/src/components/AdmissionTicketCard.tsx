import { ClockCircleOutlined, DownloadOutlined, IdcardOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { identityVerified, ticketIdentityText, zonedSpan, type Exam } from '@zhikaoyun/shared';
import { App, Button, QRCode, Skeleton } from 'antd';
import { useState } from 'react';
import { officeTimeZone } from '../lib/office-time-zone';
import { InfoRows } from './InfoRows';
import { AddToCalendarButton } from './AddToCalendarButton';
import { downloadTicketPdf, useAdmissionTicket } from '../lib/api/tickets';
import './admission-ticket.css';

const fileNameOf = (examName: string, ticketNo: string) => `准考证-${ticketNo}-${examName.replace(/[\\/:*?"<>|\s]+/g, '_')}.pdf`;

/** "2027-03-01 09:00 - 11:00" (the office's time); the end's date only when it differs. */
function sittingTime(startAt: string, endAt: string): string {
  return zonedSpan(startAt, endAt, officeTimeZone());
}

/**
 * 准考证 on the status page of a confirmed application: once printing is open, the ticket's fields,
 * its QR code for the door and the PDF to print; before that, when printing opens.
 */
export function AdmissionTicketCard({ exam }: { exam: Exam }) {
  const { message } = App.useApp();
  const ticket = useAdmissionTicket(exam.id, true);
  const [downloading, setDownloading] = useState(false);

  if (ticket.isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (!ticket.data) return null;
  const { ticket: t, reason } = ticket.data;
  if (!t)
    return (
      <section className="ticket-card is-waiting" aria-label="准考证">
        <h3 className="ticket-card__title">
          <IdcardOutlined aria-hidden /> 准考证
        </h3>
        <p className="ticket-card__reason">{reason}</p>
      </section>
    );

  const download = async () => {
    setDownloading(true);
    try {
      await downloadTicketPdf(exam.id, fileNameOf(exam.name, t.ticketNo));
    } catch (err) {
      void message.error(err instanceof Error ? err.message : '下载失败，请稍后重试');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="ticket-card" aria-label="准考证">
      <h3 className="ticket-card__title">
        <IdcardOutlined aria-hidden /> 准考证
      </h3>
      <p className="ticket-card__no">
        <span>准考证号</span>
        <strong>{t.ticketNo}</strong>
      </p>
      {/* Issue 33: a verified candidate enters as usual; any other comes early for a check at the door. */}
      {identityVerified(t.identity) ? (
        <p className="ticket-card__identity is-verified" role="note">
          <SafetyCertificateOutlined aria-hidden /> {ticketIdentityText(t.identity)}
        </p>
      ) : (
        <p className="ticket-card__identity is-unverified" role="note">
          <ClockCircleOutlined aria-hidden /> {ticketIdentityText(t.identity)}
        </p>
      )}
      <InfoRows
        rows={[
          { label: '姓名', value: t.name },
          { label: '考点', value: t.site },
          { label: '考点地址', value: t.address },
          { label: '考场', value: `第 ${t.room} 考场` },
          // One seat for the whole exam: every paper at this room and seat.
          { label: '座位号', value: `${String(t.seat).padStart(2, '0')}${t.subjects.length > 1 ? '（各科目相同）' : ''}` },
        ]}
      />
      <ul className="ticket-card__subjects" aria-label="考试科目">
        {t.subjects.map((s) => (
          <li key={`${s.name}-${s.startAt}`}>
            <span className="ticket-card__subject">{s.name}</span>
            <span className="ticket-card__time">{sittingTime(s.startAt, s.endAt)}</span>
          </li>
        ))}
      </ul>
      <div className="ticket-card__qr">
        <QRCode value={t.qr} size={168} bordered={false} aria-label="入场核验二维码" />
        <p>入场时请出示此二维码或打印的准考证，并携带身份证原件</p>
      </div>
      <Button
        type="primary"
        size="large"
        block
        icon={<DownloadOutlined aria-hidden />}
        loading={downloading}
        onClick={() => void download()}
      >
        下载准考证 (PDF)
      </Button>
      <div className="ticket-card__calendar">
        <AddToCalendarButton exam={exam} />
      </div>
    </section>
  );
}
