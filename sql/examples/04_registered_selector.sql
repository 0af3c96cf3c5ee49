-- A selector registered as a native SQL function: called on the whole row, inlined by the
-- analyzer (no Python in the plan, filters pushed down). Same answer as jms_match.
-- setup: register_selector(spark, "heavy_blue", "color = 'blue' AND weight > 2500", "messages")
SELECT JMSMessageID, JMSType
FROM messages
WHERE heavy_blue(struct(*))
ORDER BY JMSMessageID;
-- result:
-- JMSMessageID | JMSType
-- ID:1 | car
