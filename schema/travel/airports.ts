/**
 * Issue 27: the airports flight search and hotel search know (IATA code → airport, city, ISO 3166
 * alpha-2 country, IANA time zone, latitude/longitude in degrees). A city is searched by its main
 * airport's code. Typed from public knowledge; the inventory (server/domain/travel/inventory.ts)
 * derives distances from the coordinates and local times from the time zones.
 */
export type Airport = { city: string; name: string; country: string; tz: string; lat: number; lon: number };

type Row = readonly [code: string, name: string, city: string, country: string, tz: string, lat: number, lon: number];

// prettier-ignore
const ROWS: readonly Row[] = [
  // United States
  ['ATL', 'Hartsfield–Jackson Atlanta International', 'Atlanta', 'US', 'America/New_York', 33.6407, -84.4277],
  ['BOS', 'Logan International', 'Boston', 'US', 'America/New_York', 42.3656, -71.0096],
  ['BWI', 'Baltimore/Washington International', 'Baltimore', 'US', 'America/New_York', 39.1774, -76.6684],
  ['CLT', 'Charlotte Douglas International', 'Charlotte', 'US', 'America/New_York', 35.2144, -80.9473],
  ['DCA', 'Ronald Reagan Washington National', 'Washington', 'US', 'America/New_York', 38.8512, -77.0402],
  ['IAD', 'Washington Dulles International', 'Washington', 'US', 'America/New_York', 38.9531, -77.4565],
  ['DTW', 'Detroit Metropolitan Wayne County', 'Detroit', 'US', 'America/Detroit', 42.2162, -83.3554],
  ['EWR', 'Newark Liberty International', 'Newark', 'US', 'America/New_York', 40.6895, -74.1745],
  ['JFK', 'John F. Kennedy International', 'New York', 'US', 'America/New_York', 40.6413, -73.7781],
  ['LGA', 'LaGuardia', 'New York', 'US', 'America/New_York', 40.7769, -73.874],
  ['MIA', 'Miami International', 'Miami', 'US', 'America/New_York', 25.7959, -80.287],
  ['FLL', 'Fort Lauderdale–Hollywood International', 'Fort Lauderdale', 'US', 'America/New_York', 26.0742, -80.1506],
  ['MCO', 'Orlando International', 'Orlando', 'US', 'America/New_York', 28.4312, -81.3081],
  ['TPA', 'Tampa International', 'Tampa', 'US', 'America/New_York', 27.9755, -82.5332],
  ['PHL', 'Philadelphia International', 'Philadelphia', 'US', 'America/New_York', 39.8744, -75.2424],
  ['PIT', 'Pittsburgh International', 'Pittsburgh', 'US', 'America/New_York', 40.4919, -80.2329],
  ['RDU', 'Raleigh–Durham International', 'Raleigh', 'US', 'America/New_York', 35.8801, -78.788],
  ['CLE', 'Cleveland Hopkins International', 'Cleveland', 'US', 'America/New_York', 41.4117, -81.8498],
  ['CMH', 'John Glenn Columbus International', 'Columbus', 'US', 'America/New_York', 39.998, -82.8919],
  ['IND', 'Indianapolis International', 'Indianapolis', 'US', 'America/Indiana/Indianapolis', 39.7169, -86.2956],
  ['ORD', "O'Hare International", 'Chicago', 'US', 'America/Chicago', 41.9742, -87.9073],
  ['MDW', 'Chicago Midway International', 'Chicago', 'US', 'America/Chicago', 41.7868, -87.7522],
  ['MSP', 'Minneapolis–Saint Paul International', 'Minneapolis', 'US', 'America/Chicago', 44.8848, -93.2223],
  ['STL', 'St. Louis Lambert International', 'St. Louis', 'US', 'America/Chicago', 38.7487, -90.37],
  ['MCI', 'Kansas City International', 'Kansas City', 'US', 'America/Chicago', 39.2976, -94.7139],
  ['MSY', 'Louis Armstrong New Orleans International', 'New Orleans', 'US', 'America/Chicago', 29.9934, -90.258],
  ['BNA', 'Nashville International', 'Nashville', 'US', 'America/Chicago', 36.1263, -86.6774],
  ['MKE', 'Milwaukee Mitchell International', 'Milwaukee', 'US', 'America/Chicago', 42.9472, -87.8966],
  ['DFW', 'Dallas Fort Worth International', 'Dallas', 'US', 'America/Chicago', 32.8998, -97.0403],
  ['DAL', 'Dallas Love Field', 'Dallas', 'US', 'America/Chicago', 32.8471, -96.8518],
  ['IAH', 'George Bush Intercontinental', 'Houston', 'US', 'America/Chicago', 29.9902, -95.3368],
  ['HOU', 'William P. Hobby', 'Houston', 'US', 'America/Chicago', 29.6454, -95.2789],
  ['AUS', 'Austin–Bergstrom International', 'Austin', 'US', 'America/Chicago', 30.1975, -97.6664],
  ['SAT', 'San Antonio International', 'San Antonio', 'US', 'America/Chicago', 29.5337, -98.4698],
  ['DEN', 'Denver International', 'Denver', 'US', 'America/Denver', 39.8561, -104.6737],
  ['SLC', 'Salt Lake City International', 'Salt Lake City', 'US', 'America/Denver', 40.7899, -111.9791],
  ['ABQ', 'Albuquerque International Sunport', 'Albuquerque', 'US', 'America/Denver', 35.0402, -106.6091],
  ['PHX', 'Phoenix Sky Harbor International', 'Phoenix', 'US', 'America/Phoenix', 33.4342, -112.0116],
  ['LAS', 'Harry Reid International', 'Las Vegas', 'US', 'America/Los_Angeles', 36.084, -115.1537],
  ['LAX', 'Los Angeles International', 'Los Angeles', 'US', 'America/Los_Angeles', 33.9416, -118.4085],
  ['SAN', 'San Diego International', 'San Diego', 'US', 'America/Los_Angeles', 32.7338, -117.1933],
  ['SFO', 'San Francisco International', 'San Francisco', 'US', 'America/Los_Angeles', 37.6213, -122.379],
  ['OAK', 'Oakland International', 'Oakland', 'US', 'America/Los_Angeles', 37.7126, -122.2197],
  ['SJC', 'San José Mineta International', 'San Jose', 'US', 'America/Los_Angeles', 37.3639, -121.9289],
  ['SMF', 'Sacramento International', 'Sacramento', 'US', 'America/Los_Angeles', 38.6954, -121.5908],
  ['SEA', 'Seattle–Tacoma International', 'Seattle', 'US', 'America/Los_Angeles', 47.4502, -122.3088],
  ['PDX', 'Portland International', 'Portland', 'US', 'America/Los_Angeles', 45.5898, -122.5951],
  ['ANC', 'Ted Stevens Anchorage International', 'Anchorage', 'US', 'America/Anchorage', 61.1743, -149.9962],
  ['HNL', 'Daniel K. Inouye International', 'Honolulu', 'US', 'Pacific/Honolulu', 21.3187, -157.9225],
  ['OGG', 'Kahului', 'Maui', 'US', 'Pacific/Honolulu', 20.8986, -156.4305],
  ['BOI', 'Boise Airport', 'Boise', 'US', 'America/Boise', 43.5644, -116.2228],
  ['OMA', 'Eppley Airfield', 'Omaha', 'US', 'America/Chicago', 41.3032, -95.8941],
  ['MEM', 'Memphis International', 'Memphis', 'US', 'America/Chicago', 35.0424, -89.9767],
  ['JAX', 'Jacksonville International', 'Jacksonville', 'US', 'America/New_York', 30.4941, -81.6879],
  ['BUF', 'Buffalo Niagara International', 'Buffalo', 'US', 'America/New_York', 42.9405, -78.7322],
  ['CVG', 'Cincinnati/Northern Kentucky International', 'Cincinnati', 'US', 'America/New_York', 39.0489, -84.6678],
  ['SJU', 'Luis Muñoz Marín International', 'San Juan', 'PR', 'America/Puerto_Rico', 18.4394, -66.0018],
  // Canada
  ['YYZ', 'Toronto Pearson International', 'Toronto', 'CA', 'America/Toronto', 43.6777, -79.6248],
  ['YTZ', 'Billy Bishop Toronto City', 'Toronto', 'CA', 'America/Toronto', 43.6275, -79.3962],
  ['YUL', 'Montréal–Trudeau International', 'Montreal', 'CA', 'America/Toronto', 45.4706, -73.7408],
  ['YOW', 'Ottawa Macdonald–Cartier International', 'Ottawa', 'CA', 'America/Toronto', 45.3225, -75.6692],
  ['YVR', 'Vancouver International', 'Vancouver', 'CA', 'America/Vancouver', 49.1967, -123.1815],
  ['YYC', 'Calgary International', 'Calgary', 'CA', 'America/Edmonton', 51.1215, -114.0076],
  ['YEG', 'Edmonton International', 'Edmonton', 'CA', 'America/Edmonton', 53.3097, -113.58],
  ['YWG', 'Winnipeg James Armstrong Richardson International', 'Winnipeg', 'CA', 'America/Winnipeg', 49.91, -97.2399],
  ['YHZ', 'Halifax Stanfield International', 'Halifax', 'CA', 'America/Halifax', 44.8808, -63.5086],
  ['YQB', 'Québec City Jean Lesage International', 'Quebec City', 'CA', 'America/Toronto', 46.7911, -71.3933],
  // Mexico, Central America, Caribbean
  ['MEX', 'Mexico City International', 'Mexico City', 'MX', 'America/Mexico_City', 19.4361, -99.0719],
  ['CUN', 'Cancún International', 'Cancun', 'MX', 'America/Cancun', 21.0365, -86.8771],
  ['GDL', 'Guadalajara International', 'Guadalajara', 'MX', 'America/Mexico_City', 20.5218, -103.3112],
  ['MTY', 'Monterrey International', 'Monterrey', 'MX', 'America/Monterrey', 25.7785, -100.107],
  ['SJD', 'Los Cabos International', 'San José del Cabo', 'MX', 'America/Mazatlan', 23.1518, -109.7211],
  ['PTY', 'Tocumen International', 'Panama City', 'PA', 'America/Panama', 9.0714, -79.3835],
  ['SJO', 'Juan Santamaría International', 'San José', 'CR', 'America/Costa_Rica', 9.9939, -84.2088],
  ['GUA', 'La Aurora International', 'Guatemala City', 'GT', 'America/Guatemala', 14.5833, -90.5275],
  ['SAL', 'El Salvador International', 'San Salvador', 'SV', 'America/El_Salvador', 13.4409, -89.0557],
  ['NAS', 'Lynden Pindling International', 'Nassau', 'BS', 'America/Nassau', 25.039, -77.4662],
  ['MBJ', 'Sangster International', 'Montego Bay', 'JM', 'America/Jamaica', 18.5037, -77.9134],
  ['KIN', 'Norman Manley International', 'Kingston', 'JM', 'America/Jamaica', 17.9357, -76.7875],
  ['PUJ', 'Punta Cana International', 'Punta Cana', 'DO', 'America/Santo_Domingo', 18.5674, -68.3634],
  ['SDQ', 'Las Américas International', 'Santo Domingo', 'DO', 'America/Santo_Domingo', 18.4297, -69.6689],
  ['HAV', 'José Martí International', 'Havana', 'CU', 'America/Havana', 22.9892, -82.4091],
  ['AUA', 'Queen Beatrix International', 'Oranjestad', 'AW', 'America/Aruba', 12.5014, -70.0152],
  ['BGI', 'Grantley Adams International', 'Bridgetown', 'BB', 'America/Barbados', 13.0746, -59.4925],
  // South America
  ['GRU', 'São Paulo/Guarulhos International', 'São Paulo', 'BR', 'America/Sao_Paulo', -23.4356, -46.4731],
  ['CGH', 'São Paulo Congonhas', 'São Paulo', 'BR', 'America/Sao_Paulo', -23.6261, -46.6564],
  ['GIG', 'Rio de Janeiro/Galeão International', 'Rio de Janeiro', 'BR', 'America/Sao_Paulo', -22.81, -43.2506],
  ['BSB', 'Brasília International', 'Brasília', 'BR', 'America/Sao_Paulo', -15.8697, -47.9208],
  ['CNF', 'Belo Horizonte Confins International', 'Belo Horizonte', 'BR', 'America/Sao_Paulo', -19.6244, -43.9719],
  ['REC', 'Recife/Guararapes International', 'Recife', 'BR', 'America/Recife', -8.1265, -34.9236],
  ['EZE', 'Ministro Pistarini International', 'Buenos Aires', 'AR', 'America/Argentina/Buenos_Aires', -34.8222, -58.5358],
  ['AEP', 'Jorge Newbery Airfield', 'Buenos Aires', 'AR', 'America/Argentina/Buenos_Aires', -34.5592, -58.4156],
  ['SCL', 'Arturo Merino Benítez International', 'Santiago', 'CL', 'America/Santiago', -33.393, -70.7858],
  ['LIM', 'Jorge Chávez International', 'Lima', 'PE', 'America/Lima', -12.0219, -77.1143],
  ['BOG', 'El Dorado International', 'Bogotá', 'CO', 'America/Bogota', 4.7016, -74.1469],
  ['MDE', 'José María Córdova International', 'Medellín', 'CO', 'America/Bogota', 6.1645, -75.4231],
  ['UIO', 'Mariscal Sucre International', 'Quito', 'EC', 'America/Guayaquil', -0.1292, -78.3575],
  ['GYE', 'José Joaquín de Olmedo International', 'Guayaquil', 'EC', 'America/Guayaquil', -2.1574, -79.8837],
  ['MVD', 'Carrasco International', 'Montevideo', 'UY', 'America/Montevideo', -34.8384, -56.0308],
  ['CCS', 'Simón Bolívar International', 'Caracas', 'VE', 'America/Caracas', 10.6012, -66.9913],
  ['ASU', 'Silvio Pettirossi International', 'Asunción', 'PY', 'America/Asuncion', -25.24, -57.5193],
  ['VVI', 'Viru Viru International', 'Santa Cruz de la Sierra', 'BO', 'America/La_Paz', -17.6448, -63.1354],
  // United Kingdom and Ireland
  ['LHR', 'Heathrow', 'London', 'GB', 'Europe/London', 51.47, -0.4543],
  ['LGW', 'Gatwick', 'London', 'GB', 'Europe/London', 51.1537, -0.1821],
  ['LCY', 'London City', 'London', 'GB', 'Europe/London', 51.5048, 0.0495],
  ['STN', 'Stansted', 'London', 'GB', 'Europe/London', 51.886, 0.2389],
  ['MAN', 'Manchester', 'Manchester', 'GB', 'Europe/London', 53.3537, -2.275],
  ['EDI', 'Edinburgh', 'Edinburgh', 'GB', 'Europe/London', 55.95, -3.3725],
  ['GLA', 'Glasgow', 'Glasgow', 'GB', 'Europe/London', 55.8719, -4.4331],
  ['BHX', 'Birmingham', 'Birmingham', 'GB', 'Europe/London', 52.4539, -1.748],
  ['BRS', 'Bristol', 'Bristol', 'GB', 'Europe/London', 51.3827, -2.7191],
  ['BFS', 'Belfast International', 'Belfast', 'GB', 'Europe/London', 54.6575, -6.2158],
  ['DUB', 'Dublin', 'Dublin', 'IE', 'Europe/Dublin', 53.4264, -6.2499],
  ['SNN', 'Shannon', 'Shannon', 'IE', 'Europe/Dublin', 52.702, -8.9248],
  // Western Europe
  ['CDG', 'Paris Charles de Gaulle', 'Paris', 'FR', 'Europe/Paris', 49.0097, 2.5479],
  ['ORY', 'Paris Orly', 'Paris', 'FR', 'Europe/Paris', 48.7262, 2.3652],
  ['NCE', "Nice Côte d'Azur", 'Nice', 'FR', 'Europe/Paris', 43.6584, 7.2159],
  ['LYS', 'Lyon–Saint Exupéry', 'Lyon', 'FR', 'Europe/Paris', 45.7256, 5.0811],
  ['MRS', 'Marseille Provence', 'Marseille', 'FR', 'Europe/Paris', 43.4393, 5.2214],
  ['TLS', 'Toulouse–Blagnac', 'Toulouse', 'FR', 'Europe/Paris', 43.6291, 1.3638],
  ['BOD', 'Bordeaux–Mérignac', 'Bordeaux', 'FR', 'Europe/Paris', 44.8283, -0.7156],
  ['AMS', 'Amsterdam Schiphol', 'Amsterdam', 'NL', 'Europe/Amsterdam', 52.3105, 4.7683],
  ['RTM', 'Rotterdam The Hague', 'Rotterdam', 'NL', 'Europe/Amsterdam', 51.9569, 4.4372],
  ['BRU', 'Brussels', 'Brussels', 'BE', 'Europe/Brussels', 50.9014, 4.4844],
  ['LUX', 'Luxembourg', 'Luxembourg', 'LU', 'Europe/Luxembourg', 49.6233, 6.2044],
  ['FRA', 'Frankfurt', 'Frankfurt', 'DE', 'Europe/Berlin', 50.0379, 8.5622],
  ['MUC', 'Munich', 'Munich', 'DE', 'Europe/Berlin', 48.3537, 11.775],
  ['BER', 'Berlin Brandenburg', 'Berlin', 'DE', 'Europe/Berlin', 52.3667, 13.5033],
  ['HAM', 'Hamburg', 'Hamburg', 'DE', 'Europe/Berlin', 53.6304, 9.9882],
  ['DUS', 'Düsseldorf', 'Düsseldorf', 'DE', 'Europe/Berlin', 51.2895, 6.7668],
  ['CGN', 'Cologne Bonn', 'Cologne', 'DE', 'Europe/Berlin', 50.8659, 7.1427],
  ['STR', 'Stuttgart', 'Stuttgart', 'DE', 'Europe/Berlin', 48.6899, 9.222],
  ['ZRH', 'Zurich', 'Zurich', 'CH', 'Europe/Zurich', 47.4582, 8.5555],
  ['GVA', 'Geneva', 'Geneva', 'CH', 'Europe/Zurich', 46.2381, 6.1089],
  ['BSL', 'EuroAirport Basel Mulhouse Freiburg', 'Basel', 'CH', 'Europe/Zurich', 47.59, 7.5291],
  ['VIE', 'Vienna International', 'Vienna', 'AT', 'Europe/Vienna', 48.1103, 16.5697],
  ['SZG', 'Salzburg W. A. Mozart', 'Salzburg', 'AT', 'Europe/Vienna', 47.7933, 13.0043],
  // Southern Europe
  ['MAD', 'Adolfo Suárez Madrid–Barajas', 'Madrid', 'ES', 'Europe/Madrid', 40.4983, -3.5676],
  ['BCN', 'Josep Tarradellas Barcelona–El Prat', 'Barcelona', 'ES', 'Europe/Madrid', 41.2974, 2.0833],
  ['PMI', 'Palma de Mallorca', 'Palma', 'ES', 'Europe/Madrid', 39.5517, 2.7388],
  ['AGP', 'Málaga–Costa del Sol', 'Málaga', 'ES', 'Europe/Madrid', 36.6749, -4.4991],
  ['VLC', 'Valencia', 'Valencia', 'ES', 'Europe/Madrid', 39.4893, -0.4816],
  ['SVQ', 'Seville', 'Seville', 'ES', 'Europe/Madrid', 37.418, -5.8931],
  ['BIO', 'Bilbao', 'Bilbao', 'ES', 'Europe/Madrid', 43.3011, -2.9106],
  ['LIS', 'Humberto Delgado', 'Lisbon', 'PT', 'Europe/Lisbon', 38.7756, -9.1354],
  ['OPO', 'Francisco Sá Carneiro', 'Porto', 'PT', 'Europe/Lisbon', 41.2481, -8.6814],
  ['FCO', 'Rome Fiumicino', 'Rome', 'IT', 'Europe/Rome', 41.8003, 12.2389],
  ['MXP', 'Milan Malpensa', 'Milan', 'IT', 'Europe/Rome', 45.6306, 8.7281],
  ['LIN', 'Milan Linate', 'Milan', 'IT', 'Europe/Rome', 45.4451, 9.2767],
  ['VCE', 'Venice Marco Polo', 'Venice', 'IT', 'Europe/Rome', 45.5053, 12.3519],
  ['NAP', 'Naples International', 'Naples', 'IT', 'Europe/Rome', 40.886, 14.2908],
  ['BLQ', 'Bologna Guglielmo Marconi', 'Bologna', 'IT', 'Europe/Rome', 44.5354, 11.2887],
  ['FLR', 'Florence Peretola', 'Florence', 'IT', 'Europe/Rome', 43.81, 11.2051],
  ['CTA', 'Catania–Fontanarossa', 'Catania', 'IT', 'Europe/Rome', 37.4668, 15.0664],
  ['ATH', 'Athens International', 'Athens', 'GR', 'Europe/Athens', 37.9364, 23.9445],
  ['SKG', 'Thessaloniki Macedonia', 'Thessaloniki', 'GR', 'Europe/Athens', 40.5197, 22.9709],
  ['MLA', 'Malta International', 'Valletta', 'MT', 'Europe/Malta', 35.8575, 14.4775],
  ['LCA', 'Larnaca International', 'Larnaca', 'CY', 'Asia/Nicosia', 34.8751, 33.6249],
  // Northern Europe
  ['CPH', 'Copenhagen Kastrup', 'Copenhagen', 'DK', 'Europe/Copenhagen', 55.618, 12.656],
  ['ARN', 'Stockholm Arlanda', 'Stockholm', 'SE', 'Europe/Stockholm', 59.6498, 17.9238],
  ['GOT', 'Göteborg Landvetter', 'Gothenburg', 'SE', 'Europe/Stockholm', 57.6628, 12.2798],
  ['OSL', 'Oslo Gardermoen', 'Oslo', 'NO', 'Europe/Oslo', 60.1976, 11.1004],
  ['BGO', 'Bergen Flesland', 'Bergen', 'NO', 'Europe/Oslo', 60.2934, 5.2181],
  ['HEL', 'Helsinki-Vantaa', 'Helsinki', 'FI', 'Europe/Helsinki', 60.3172, 24.9633],
  ['KEF', 'Keflavík International', 'Reykjavík', 'IS', 'Atlantic/Reykjavik', 63.985, -22.6056],
  ['RIX', 'Riga International', 'Riga', 'LV', 'Europe/Riga', 56.9236, 23.9711],
  ['TLL', 'Tallinn Lennart Meri', 'Tallinn', 'EE', 'Europe/Tallinn', 59.4133, 24.8328],
  ['VNO', 'Vilnius International', 'Vilnius', 'LT', 'Europe/Vilnius', 54.6341, 25.2858],
  // Central and Eastern Europe
  ['WAW', 'Warsaw Chopin', 'Warsaw', 'PL', 'Europe/Warsaw', 52.1657, 20.9671],
  ['KRK', 'Kraków John Paul II International', 'Kraków', 'PL', 'Europe/Warsaw', 50.0777, 19.7848],
  ['PRG', 'Václav Havel Prague', 'Prague', 'CZ', 'Europe/Prague', 50.1008, 14.26],
  ['BUD', 'Budapest Ferenc Liszt International', 'Budapest', 'HU', 'Europe/Budapest', 47.4298, 19.2611],
  ['OTP', 'Henri Coandă International', 'Bucharest', 'RO', 'Europe/Bucharest', 44.5711, 26.085],
  ['SOF', 'Sofia', 'Sofia', 'BG', 'Europe/Sofia', 42.6967, 23.4114],
  ['BEG', 'Belgrade Nikola Tesla', 'Belgrade', 'RS', 'Europe/Belgrade', 44.8184, 20.3091],
  ['ZAG', 'Zagreb Franjo Tuđman', 'Zagreb', 'HR', 'Europe/Zagreb', 45.7429, 16.0688],
  ['DBV', 'Dubrovnik', 'Dubrovnik', 'HR', 'Europe/Zagreb', 42.5614, 18.2682],
  ['LJU', 'Ljubljana Jože Pučnik', 'Ljubljana', 'SI', 'Europe/Ljubljana', 46.2237, 14.4576],
  ['KBP', 'Boryspil International', 'Kyiv', 'UA', 'Europe/Kyiv', 50.345, 30.8947],
  ['IST', 'Istanbul', 'Istanbul', 'TR', 'Europe/Istanbul', 41.2753, 28.7519],
  ['SAW', 'Sabiha Gökçen International', 'Istanbul', 'TR', 'Europe/Istanbul', 40.8986, 29.3092],
  ['ESB', 'Ankara Esenboğa', 'Ankara', 'TR', 'Europe/Istanbul', 40.1281, 32.9951],
  ['AYT', 'Antalya', 'Antalya', 'TR', 'Europe/Istanbul', 36.8987, 30.8005],
  // Middle East
  ['DXB', 'Dubai International', 'Dubai', 'AE', 'Asia/Dubai', 25.2532, 55.3657],
  ['AUH', 'Zayed International', 'Abu Dhabi', 'AE', 'Asia/Dubai', 24.433, 54.6511],
  ['DOH', 'Hamad International', 'Doha', 'QA', 'Asia/Qatar', 25.2731, 51.6081],
  ['BAH', 'Bahrain International', 'Manama', 'BH', 'Asia/Bahrain', 26.2708, 50.6336],
  ['KWI', 'Kuwait International', 'Kuwait City', 'KW', 'Asia/Kuwait', 29.2266, 47.9689],
  ['MCT', 'Muscat International', 'Muscat', 'OM', 'Asia/Muscat', 23.5933, 58.2844],
  ['RUH', 'King Khalid International', 'Riyadh', 'SA', 'Asia/Riyadh', 24.9576, 46.6988],
  ['JED', 'King Abdulaziz International', 'Jeddah', 'SA', 'Asia/Riyadh', 21.6796, 39.1565],
  ['TLV', 'Ben Gurion', 'Tel Aviv', 'IL', 'Asia/Jerusalem', 32.0055, 34.8854],
  ['AMM', 'Queen Alia International', 'Amman', 'JO', 'Asia/Amman', 31.7226, 35.9932],
  ['BEY', 'Beirut–Rafic Hariri International', 'Beirut', 'LB', 'Asia/Beirut', 33.8209, 35.4884],
  // Africa
  ['CAI', 'Cairo International', 'Cairo', 'EG', 'Africa/Cairo', 30.1219, 31.4056],
  ['CMN', 'Mohammed V International', 'Casablanca', 'MA', 'Africa/Casablanca', 33.3675, -7.5898],
  ['RAK', 'Marrakesh Menara', 'Marrakesh', 'MA', 'Africa/Casablanca', 31.6069, -8.0363],
  ['TUN', 'Tunis–Carthage International', 'Tunis', 'TN', 'Africa/Tunis', 36.851, 10.2272],
  ['ALG', 'Houari Boumediene', 'Algiers', 'DZ', 'Africa/Algiers', 36.691, 3.2154],
  ['LOS', 'Murtala Muhammed International', 'Lagos', 'NG', 'Africa/Lagos', 6.5774, 3.3212],
  ['ABV', 'Nnamdi Azikiwe International', 'Abuja', 'NG', 'Africa/Lagos', 9.0068, 7.2632],
  ['ACC', 'Kotoka International', 'Accra', 'GH', 'Africa/Accra', 5.6052, -0.1668],
  ['DSS', 'Blaise Diagne International', 'Dakar', 'SN', 'Africa/Dakar', 14.67, -17.0733],
  ['ABJ', 'Félix-Houphouët-Boigny International', 'Abidjan', 'CI', 'Africa/Abidjan', 5.2614, -3.9263],
  ['ADD', 'Addis Ababa Bole International', 'Addis Ababa', 'ET', 'Africa/Addis_Ababa', 8.9779, 38.7993],
  ['NBO', 'Jomo Kenyatta International', 'Nairobi', 'KE', 'Africa/Nairobi', -1.3192, 36.9278],
  ['DAR', 'Julius Nyerere International', 'Dar es Salaam', 'TZ', 'Africa/Dar_es_Salaam', -6.8781, 39.2026],
  ['EBB', 'Entebbe International', 'Entebbe', 'UG', 'Africa/Kampala', 0.0424, 32.4435],
  ['KGL', 'Kigali International', 'Kigali', 'RW', 'Africa/Kigali', -1.9686, 30.1395],
  ['JNB', 'O. R. Tambo International', 'Johannesburg', 'ZA', 'Africa/Johannesburg', -26.1367, 28.2411],
  ['CPT', 'Cape Town International', 'Cape Town', 'ZA', 'Africa/Johannesburg', -33.9715, 18.6021],
  ['DUR', 'King Shaka International', 'Durban', 'ZA', 'Africa/Johannesburg', -29.6144, 31.1197],
  ['MRU', 'Sir Seewoosagur Ramgoolam International', 'Port Louis', 'MU', 'Indian/Mauritius', -20.4302, 57.6836],
  ['SEZ', 'Seychelles International', 'Victoria', 'SC', 'Indian/Mahe', -4.6743, 55.5218],
  // South Asia
  ['DEL', 'Indira Gandhi International', 'Delhi', 'IN', 'Asia/Kolkata', 28.5562, 77.1],
  ['BOM', 'Chhatrapati Shivaji Maharaj International', 'Mumbai', 'IN', 'Asia/Kolkata', 19.0896, 72.8656],
  ['BLR', 'Kempegowda International', 'Bengaluru', 'IN', 'Asia/Kolkata', 13.1986, 77.7066],
  ['MAA', 'Chennai International', 'Chennai', 'IN', 'Asia/Kolkata', 12.9941, 80.1709],
  ['HYD', 'Rajiv Gandhi International', 'Hyderabad', 'IN', 'Asia/Kolkata', 17.2403, 78.4294],
  ['CCU', 'Netaji Subhas Chandra Bose International', 'Kolkata', 'IN', 'Asia/Kolkata', 22.6547, 88.4467],
  ['COK', 'Cochin International', 'Kochi', 'IN', 'Asia/Kolkata', 10.152, 76.4019],
  ['GOI', 'Dabolim', 'Goa', 'IN', 'Asia/Kolkata', 15.3808, 73.8314],
  ['CMB', 'Bandaranaike International', 'Colombo', 'LK', 'Asia/Colombo', 7.1808, 79.8841],
  ['MLE', 'Velana International', 'Malé', 'MV', 'Indian/Maldives', 4.1918, 73.5291],
  ['KTM', 'Tribhuvan International', 'Kathmandu', 'NP', 'Asia/Kathmandu', 27.6966, 85.3591],
  ['DAC', 'Hazrat Shahjalal International', 'Dhaka', 'BD', 'Asia/Dhaka', 23.8433, 90.3978],
  ['KHI', 'Jinnah International', 'Karachi', 'PK', 'Asia/Karachi', 24.9065, 67.1608],
  ['ISB', 'Islamabad International', 'Islamabad', 'PK', 'Asia/Karachi', 33.5491, 72.8258],
  ['LHE', 'Allama Iqbal International', 'Lahore', 'PK', 'Asia/Karachi', 31.5216, 74.4036],
  // East and Southeast Asia
  ['SIN', 'Singapore Changi', 'Singapore', 'SG', 'Asia/Singapore', 1.3644, 103.9915],
  ['KUL', 'Kuala Lumpur International', 'Kuala Lumpur', 'MY', 'Asia/Kuala_Lumpur', 2.7456, 101.7099],
  ['PEN', 'Penang International', 'Penang', 'MY', 'Asia/Kuala_Lumpur', 5.2971, 100.2769],
  ['BKK', 'Suvarnabhumi', 'Bangkok', 'TH', 'Asia/Bangkok', 13.69, 100.7501],
  ['DMK', 'Don Mueang International', 'Bangkok', 'TH', 'Asia/Bangkok', 13.9126, 100.6068],
  ['HKT', 'Phuket International', 'Phuket', 'TH', 'Asia/Bangkok', 8.1132, 98.3169],
  ['CNX', 'Chiang Mai International', 'Chiang Mai', 'TH', 'Asia/Bangkok', 18.7668, 98.9626],
  ['CGK', 'Soekarno–Hatta International', 'Jakarta', 'ID', 'Asia/Jakarta', -6.1256, 106.6559],
  ['DPS', 'I Gusti Ngurah Rai International', 'Denpasar', 'ID', 'Asia/Makassar', -8.7482, 115.1675],
  ['MNL', 'Ninoy Aquino International', 'Manila', 'PH', 'Asia/Manila', 14.5086, 121.0194],
  ['CEB', 'Mactan–Cebu International', 'Cebu', 'PH', 'Asia/Manila', 10.3075, 123.9794],
  ['SGN', 'Tan Son Nhat International', 'Ho Chi Minh City', 'VN', 'Asia/Ho_Chi_Minh', 10.8188, 106.6519],
  ['HAN', 'Noi Bai International', 'Hanoi', 'VN', 'Asia/Bangkok', 21.2212, 105.8072],
  ['DAD', 'Da Nang International', 'Da Nang', 'VN', 'Asia/Ho_Chi_Minh', 16.0439, 108.1994],
  ['PNH', 'Phnom Penh International', 'Phnom Penh', 'KH', 'Asia/Phnom_Penh', 11.5466, 104.8441],
  ['RGN', 'Yangon International', 'Yangon', 'MM', 'Asia/Yangon', 16.9073, 96.1332],
  ['HKG', 'Hong Kong International', 'Hong Kong', 'HK', 'Asia/Hong_Kong', 22.308, 113.9185],
  ['MFM', 'Macau International', 'Macau', 'MO', 'Asia/Macau', 22.1496, 113.5919],
  ['TPE', 'Taiwan Taoyuan International', 'Taipei', 'TW', 'Asia/Taipei', 25.0797, 121.2342],
  ['TSA', 'Taipei Songshan', 'Taipei', 'TW', 'Asia/Taipei', 25.0694, 121.5525],
  ['PEK', 'Beijing Capital International', 'Beijing', 'CN', 'Asia/Shanghai', 40.0799, 116.6031],
  ['PKX', 'Beijing Daxing International', 'Beijing', 'CN', 'Asia/Shanghai', 39.5098, 116.4105],
  ['PVG', 'Shanghai Pudong International', 'Shanghai', 'CN', 'Asia/Shanghai', 31.1443, 121.8083],
  ['SHA', 'Shanghai Hongqiao International', 'Shanghai', 'CN', 'Asia/Shanghai', 31.1979, 121.3363],
  ['CAN', 'Guangzhou Baiyun International', 'Guangzhou', 'CN', 'Asia/Shanghai', 23.3924, 113.2988],
  ['SZX', "Shenzhen Bao'an International", 'Shenzhen', 'CN', 'Asia/Shanghai', 22.6393, 113.8107],
  ['CTU', 'Chengdu Tianfu International', 'Chengdu', 'CN', 'Asia/Shanghai', 30.3125, 104.4411],
  ['XIY', "Xi'an Xianyang International", "Xi'an", 'CN', 'Asia/Shanghai', 34.4471, 108.7516],
  ['HGH', 'Hangzhou Xiaoshan International', 'Hangzhou', 'CN', 'Asia/Shanghai', 30.2295, 120.4344],
  ['NRT', 'Narita International', 'Tokyo', 'JP', 'Asia/Tokyo', 35.772, 140.3929],
  ['HND', 'Haneda', 'Tokyo', 'JP', 'Asia/Tokyo', 35.5494, 139.7798],
  ['KIX', 'Kansai International', 'Osaka', 'JP', 'Asia/Tokyo', 34.4347, 135.244],
  ['ITM', 'Osaka Itami', 'Osaka', 'JP', 'Asia/Tokyo', 34.7855, 135.4382],
  ['NGO', 'Chubu Centrair International', 'Nagoya', 'JP', 'Asia/Tokyo', 34.8584, 136.8048],
  ['FUK', 'Fukuoka', 'Fukuoka', 'JP', 'Asia/Tokyo', 33.5859, 130.4507],
  ['CTS', 'New Chitose', 'Sapporo', 'JP', 'Asia/Tokyo', 42.7752, 141.6923],
  ['OKA', 'Naha', 'Okinawa', 'JP', 'Asia/Tokyo', 26.1958, 127.6459],
  ['ICN', 'Incheon International', 'Seoul', 'KR', 'Asia/Seoul', 37.4602, 126.4407],
  ['GMP', 'Gimpo International', 'Seoul', 'KR', 'Asia/Seoul', 37.5583, 126.7906],
  ['PUS', 'Gimhae International', 'Busan', 'KR', 'Asia/Seoul', 35.1795, 128.9382],
  ['ULN', 'Chinggis Khaan International', 'Ulaanbaatar', 'MN', 'Asia/Ulaanbaatar', 47.6469, 106.8197],
  ['ALA', 'Almaty International', 'Almaty', 'KZ', 'Asia/Almaty', 43.3521, 77.0405],
  ['TAS', 'Tashkent International', 'Tashkent', 'UZ', 'Asia/Tashkent', 41.2579, 69.2812],
  // Oceania
  ['SYD', 'Sydney Kingsford Smith', 'Sydney', 'AU', 'Australia/Sydney', -33.9399, 151.1753],
  ['MEL', 'Melbourne', 'Melbourne', 'AU', 'Australia/Melbourne', -37.669, 144.841],
  ['BNE', 'Brisbane', 'Brisbane', 'AU', 'Australia/Brisbane', -27.3842, 153.1175],
  ['PER', 'Perth', 'Perth', 'AU', 'Australia/Perth', -31.9385, 115.9672],
  ['ADL', 'Adelaide', 'Adelaide', 'AU', 'Australia/Adelaide', -34.945, 138.5306],
  ['CBR', 'Canberra', 'Canberra', 'AU', 'Australia/Sydney', -35.3069, 149.195],
  ['OOL', 'Gold Coast', 'Gold Coast', 'AU', 'Australia/Brisbane', -28.1644, 153.5047],
  ['CNS', 'Cairns', 'Cairns', 'AU', 'Australia/Brisbane', -16.8858, 145.7552],
  ['DRW', 'Darwin International', 'Darwin', 'AU', 'Australia/Darwin', -12.4147, 130.8769],
  ['HBA', 'Hobart', 'Hobart', 'AU', 'Australia/Hobart', -42.8361, 147.5103],
  ['AKL', 'Auckland', 'Auckland', 'NZ', 'Pacific/Auckland', -37.0082, 174.785],
  ['WLG', 'Wellington', 'Wellington', 'NZ', 'Pacific/Auckland', -41.3272, 174.8053],
  ['CHC', 'Christchurch', 'Christchurch', 'NZ', 'Pacific/Auckland', -43.4894, 172.5322],
  ['ZQN', 'Queenstown', 'Queenstown', 'NZ', 'Pacific/Auckland', -45.0211, 168.7392],
  ['NAN', 'Nadi International', 'Nadi', 'FJ', 'Pacific/Fiji', -17.7554, 177.4431],
  ['PPT', "Fa'a'ā International", 'Papeete', 'PF', 'Pacific/Tahiti', -17.5537, -149.6066],
  ['NOU', 'La Tontouta International', 'Nouméa', 'NC', 'Pacific/Noumea', -22.0146, 166.213],
  ['GUM', 'Antonio B. Won Pat International', 'Hagåtña', 'GU', 'Pacific/Guam', 13.4834, 144.7959],
];

export const AIRPORTS: Readonly<Record<string, { city: string; name: string; country: string; tz: string; lat: number; lon: number }>> =
  Object.freeze(Object.fromEntries(ROWS.map(([code, name, city, country, tz, lat, lon]) => [code, Object.freeze({ city, name, country, tz, lat, lon })])));

/** Every code, sorted. */
const AIRPORT_CODES: readonly string[] = Object.keys(AIRPORTS).sort();

/** The airport of an IATA code (any case), or null when unknown. */
export function airport(code: string): Airport | null {
  return AIRPORTS[code.toUpperCase()] ?? null;
}

/** Great-circle distance between two airports in kilometres (haversine, Earth radius 6,371 km). */
export function distanceKm(a: Pick<Airport, 'lat' | 'lon'>, b: Pick<Airport, 'lat' | 'lon'>): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Lower-cased, accents removed: "São Paulo" matches "sao". */
const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export type AirportMatch = Airport & { code: string };

/**
 * The UI's autocomplete: airports whose code, city or name (or any word of them) starts with `q`
 * (case and accents ignored). An exact code first, then city-prefix matches, then the rest, each
 * group by code; at most `limit`. An empty query matches nothing.
 */
export function searchAirports(q: string, limit = 10): AirportMatch[] {
  const needle = fold(q.trim());
  if (!needle) return [];
  const rank = (code: string, a: Airport): number => {
    if (code.toLowerCase() === needle) return 0;
    if (fold(a.city).startsWith(needle)) return 1;
    if (code.toLowerCase().startsWith(needle)) return 2;
    const words = [...fold(a.city).split(/[\s\-/'.]+/), ...fold(a.name).split(/[\s\-/'.–]+/)];
    if (fold(a.name).startsWith(needle) || words.some((w) => w.startsWith(needle))) return 3;
    return -1;
  };
  return AIRPORT_CODES.map((code) => ({ code, a: AIRPORTS[code]!, r: rank(code, AIRPORTS[code]!) }))
    .filter((m) => m.r >= 0)
    .sort((x, y) => x.r - y.r || (x.code < y.code ? -1 : 1))
    .slice(0, limit)
    .map(({ code, a }) => ({ code, ...a }));
}

/** The city of an airport code, or null when the code is not one of ours. */
export function airportCity(code: string): string | null {
  return airport(code)?.city ?? null;
}
