-- HiBench's sql/aggregation on Hive: the revenue of each source IP.
USE DEFAULT;
CREATE EXTERNAL TABLE uservisits_aggre_input (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE, userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS SEQUENCEFILE LOCATION '${hivevar:input}/uservisits';
CREATE EXTERNAL TABLE uservisits_aggre (sourceIP STRING, sumAdRevenue DOUBLE) STORED AS SEQUENCEFILE LOCATION '${hivevar:output}/uservisits_aggre';
INSERT OVERWRITE TABLE uservisits_aggre SELECT sourceIP, SUM(adRevenue) FROM uservisits_aggre_input GROUP BY sourceIP;
