import type { CaseMailTexts } from './types';

/** European Portuguese, third person, the staff pages' words (docs/i18n.md): denúncia, denunciante, prazo de resolução. */
export const pt: CaseMailTexts = {
  new_report: { subject: 'Nova denúncia n.º {n}', line: 'Foi recebida uma nova denúncia (n.º {n}).' },
  assigned: { subject: 'A denúncia n.º {n} foi-lhe atribuída', line: 'A denúncia n.º {n} foi-lhe atribuída.' },
  discloser_message: {
    subject: 'Nova mensagem na denúncia n.º {n}',
    line: 'O denunciante da denúncia n.º {n} enviou uma nova mensagem.',
  },
  discloser_file: {
    subject: 'Novo ficheiro na denúncia n.º {n}',
    line: 'O denunciante da denúncia n.º {n} adicionou um ficheiro.',
  },
  acknowledgement_due_soon: {
    subject: 'Denúncia n.º {n}: aviso de receção a enviar em breve',
    line: 'A receção da denúncia n.º {n} tem de ser confirmada ao denunciante até {due} (UTC).',
  },
  acknowledgement_overdue: {
    subject: 'Denúncia n.º {n}: aviso de receção em atraso',
    line: 'A receção da denúncia n.º {n} devia ter sido confirmada até {due} (UTC) e não foi.',
  },
  feedback_due_soon: {
    subject: 'Denúncia n.º {n}: resposta a dar em breve',
    line: 'O denunciante da denúncia n.º {n} tem de receber uma resposta até {due} (UTC).',
  },
  feedback_overdue: {
    subject: 'Denúncia n.º {n}: resposta em atraso',
    line: 'A resposta à denúncia n.º {n} era devida até {due} (UTC) e não foi dada.',
  },
  resolution_due_soon: {
    subject: 'Denúncia n.º {n}: prazo de resolução a terminar',
    line: 'A denúncia n.º {n} atinge o prazo de resolução da empresa em {due} (UTC).',
  },
  resolution_overdue: {
    subject: 'Denúncia n.º {n}: prazo de resolução ultrapassado',
    line: 'A denúncia n.º {n} ultrapassou o prazo de resolução da empresa em {due} (UTC) e continua aberta.',
  },
  retention_due: {
    subject: 'A denúncia n.º {n} será eliminada em {due} (UTC)',
    line: 'A denúncia n.º {n} está encerrada e chega ao fim do período de conservação da empresa: será eliminada definitivamente, com as suas mensagens e ficheiros, em {due} (UTC). Reabra o caso antes dessa data para o conservar.',
  },
  open: 'Abra-a no Whistle (início de sessão obrigatório):',
};
