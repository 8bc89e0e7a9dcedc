-- HiBench's sql/scan on Hive: copy the user visits table.
USE DEFAULT;
CREATE EXTERNAL TABLE uservisits_scan_input (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE, userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS SEQUENCEFILE LOCATION '${hivevar:input}/uservisits';
CREATE EXTERNAL TABLE uservisits_scan (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE, userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS SEQUENCEFILE LOCATION '${hivevar:output}/uservisits_scan';
INSERT OVERWRITE TABLE uservisits_scan SELECT * FROM uservisits_scan_input;
