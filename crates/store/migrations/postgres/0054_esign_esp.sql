-- Several ESPs with failover (issue 39, item 3): each eSign transaction records the name of the
-- ESP its request was sent to, and its answer is checked against that ESP's certificate and
-- profile only. Rows from before have none: they were sent to the only ESP, the first in the
-- list now.
ALTER TABLE esign_transactions ADD COLUMN esp TEXT;
