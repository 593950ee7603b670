import { useId } from 'react';
import type { CardView } from '../../lib/cards.ts';
import { lastFourText } from '../../lib/card-labels.ts';
import { useCardBranding } from './use-card-branding.ts';

/**
 * The card as a small picture: name, ••last four (or that the number comes when it is issued),
 * virtual or physical, primary. Its words are read as the card's name by what it labels.
 * An active virtual card wears the business's branding (issue 32: its colour with legible text,
 * its logo); other statuses keep their own fills so the state stays visible.
 */
export function CardFace({ card, holder, titleId, numberId }: { card: CardView; holder?: string; titleId?: string; numberId?: string }) {
  const fallbackId = useId();
  const four = lastFourText(card);
  const brand = useCardBranding();
  const branded = !card.is_physical && card.status === 'ACTIVE';
  const style = branded && brand.color ? { background: brand.color, color: brand.text ?? undefined } : undefined;
  return (
    <div className={`card-face card-face-${card.status.toLowerCase()}`} style={style} data-branded={branded && (brand.color || brand.logoUrl) ? 'true' : undefined}>
      {branded && brand.logoUrl && <img className="card-face-logo" src={brand.logoUrl} alt="" />}
      <div className="card-face-top">
        <span className="card-face-kind">{card.is_physical ? 'Physical' : 'Virtual'}</span>
        {card.is_primary && <span className="card-face-badge">Primary</span>}
      </div>
      <h3 className="card-face-name" id={titleId ?? fallbackId}>
        {card.display_name}
      </h3>
      <div className="card-face-number" id={numberId}>{four ?? <span className="card-face-pending">Number assigned when issued</span>}</div>
      {holder && <div className="card-face-holder">{holder}</div>}
    </div>
  );
}
